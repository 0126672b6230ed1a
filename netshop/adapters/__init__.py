"""External systems the shop talks to: the carrier and the payment gateway (see each module)."""
