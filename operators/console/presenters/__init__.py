"""Shaping escalations for the console's templates, one module per thing shown.

Only presentation lives here (labels, due states, what the approve button says); reads go
through the selectors and every change, and every rule of what may be decided, through the
services. ``queue`` shapes the queue's rows, ``detail`` assembles the detail page from
``actions``, ``decision``, ``handoffs`` and ``timeline``; ``deadlines`` serves both.
"""
