"""How much the AI may do on its own, per kind of request (issue 25, part 2).

Managers set each intent's level (``levels``): *send* (the AI answers), *send and review* (it
answers, and the answer joins the review queue), *draft* (the reply waits for a person to
send it). ``disposition`` decides, for one finished turn, what happens to its reply: some turns
are drafts whatever the setting (not understood, read unsurely, failing their self-check, a
complaint, instructions to the system).
"""
