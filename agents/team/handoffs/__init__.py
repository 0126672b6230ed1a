"""Hand-offs between agents: the uniform dispatch, content-free
receipts and verdicts, and the run's audit writers.
"""
