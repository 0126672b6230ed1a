"""Mail to staff about escalations: large new approvals, deadlines near, approvals overdue.

Rules in ``services``, who wants what in ``preferences``, the mails' words in ``mails``;
``tasks`` runs them in Celery workers, after the transaction that asked for them commits.
"""
