"""Storefront webhooks: signed POSTs to a storefront token's callback URL, from an outbox.

A ``WebhookDelivery`` row is written in the transaction that changed a conversation
(``services.delivery_enqueue``); a task sends it after commit (``tasks``), and a beat sweep
sends whatever is due and unsent, so a worker killed before or during a send loses nothing.
The receiver deduplicates on the delivery id, which stays the same across retries.
"""
