"""The simulation pages (managers): suites, runs in the sandbox, results, comparisons, replay.

The simulations themselves (suites, the sandbox, verdicts, stored runs) are
``agents.simulation``; this package shows them and takes a manager's choices.
"""
