"""The managers' pages over the audit log: search, inquiry timelines, CSV export, dashboard."""
