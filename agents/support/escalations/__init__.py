"""Escalations to people: writes (services), reads (selectors) and the hand-off package."""
