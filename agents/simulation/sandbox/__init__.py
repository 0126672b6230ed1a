"""The sandbox: a database of its own and a child process whose every way out is closed.

The parent (``process``) makes sure the sandbox database exists (``database``), starts the
child with the sandbox's environment (``environment``) and reads its results as JSON lines;
the child (``child``, under ``settings``) seeds the fixed demo scenario, runs the cases and
reads what each one did to the shop (``shop_state``).
"""
