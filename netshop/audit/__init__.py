"""The tamper-evident audit log: every step of a run, every decision, every side effect.

Writable from the shop's services, the agents and the operators' views alike, so it lives
here (``netshop`` imports neither of the others). Write with ``audit_record``; check the
chain with ``audit_verify`` (or ``manage.py verify_audit``) against the anchors ``audit_anchor``
writes outside the database (``manage.py audit_anchor``, a beat task every minute).
"""

from netshop.audit.actions import SYSTEM_ACTOR, AuditAction
from netshop.audit.anchors import audit_anchor
from netshop.audit.services import audit_batch, audit_record, inquiry_id_from_ref
from netshop.audit.verify import VerifyReport, audit_verify

__all__ = [
    "SYSTEM_ACTOR",
    "AuditAction",
    "VerifyReport",
    "audit_anchor",
    "audit_batch",
    "audit_record",
    "audit_verify",
    "inquiry_id_from_ref",
]
