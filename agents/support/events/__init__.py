"""The live events: their names and groups (``names``), what they carry (``payloads``), the bus
that numbers and publishes them (``bus``) and the sending to the channel layer (``transport``)."""
