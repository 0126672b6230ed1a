"""Simulation: test the AI team before it talks to customers (issue 28).

A *suite* of cases (customer turns with what must happen) runs in a *sandbox* (a database of
its own, nothing reaching the shop's customers, gateway, queue, mail or audit chain) against the
configuration in force or a named *candidate*; a *replay* re-runs past conversations and
measures agreement with the operators' decisions. Runs and their results are stored
(``models``) with the versions they ran against, so a console can list them, show regressions
first and compare two.

A Django app of its own (label ``simulation``) so its tables and migrations stay apart from the
support domain's; it sits above ``agents.runs`` in the agents layers and imports nothing above.
"""
