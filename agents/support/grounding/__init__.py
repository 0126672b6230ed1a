"""Grounding: which of the customer's real orders a request means, from the facts they give.

The customer names an order by its number in any spelling, by what it holds, by the state
they see it in, by its amount; the shop's records decide which order that is. Both model
providers go through this package (the Order agent's ``search_orders`` tool runs it), so a
real model gets the same guarantee as the offline one: one order when one fits, candidates to
ask about when several do, and never another order swapped in for the one described.
"""
