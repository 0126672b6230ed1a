"""Shared fixtures: every test talks to the real PostgreSQL and Redis configured by scripts/test."""
