"""The audit log over the API: an inquiry's trail for staff; search and export for managers.

The filters are parsed by the search page's own form, so a query means the same on the page,
in its CSV export and here.
"""

from __future__ import annotations

from uuid import UUID

from django.http import HttpRequest, StreamingHttpResponse
from ninja import Query, Router

from netshop.audit.models import AuditEntry
from netshop.errors import DomainError
from netshop.roles import Role
from operators.api.auth import STAFF, require_role
from operators.api.schemas import (
    AuditEntryOut,
    AuditPageOut,
    AuditQuery,
    AuditTrailOut,
    ErrorOut,
)
from operators.audit import selectors
from operators.audit.export import export_response
from operators.audit.forms import AuditFilters, AuditSearchForm

router = Router(auth=STAFF, tags=["audit"])

DENIED = {401: ErrorOut, 403: ErrorOut}


@router.get(
    "/inquiries/{inquiry_id}/audit",
    response={200: AuditTrailOut, 404: ErrorOut, 422: ErrorOut, **DENIED},
    summary="An inquiry's audit trail",
)
def inquiry_audit_trail(request: HttpRequest, inquiry_id: UUID) -> AuditTrailOut:
    """Every audit entry filed under the inquiry, oldest first (operators and managers)."""
    require_role(request, Role.OPERATOR)
    found = selectors.inquiry_timeline(inquiry_id)
    if found.inquiry is None and not found.entries:
        raise DomainError("inquiry_not_found")
    entries = [_entry(e) for e in found.entries]
    return AuditTrailOut(inquiry_id=str(inquiry_id), entries=entries, truncated=found.truncated)


@router.get(
    "/audit",
    response={200: AuditPageOut, 422: ErrorOut, **DENIED},
    summary="Search the audit log (managers)",
)
def audit_search(
    request: HttpRequest, filters: Query[AuditQuery], before: int | None = None
) -> AuditPageOut:
    """Entries matching every filter given, newest first, a page at a time."""
    require_role(request, Role.MANAGER)
    found = selectors.audit_search(_parsed(filters))
    page = selectors.audit_page(found, before=before)
    return AuditPageOut(entries=[_entry(e) for e in page.entries], next_before=page.older_than)


@router.get(
    "/audit/export.csv",
    response={200: None, 422: ErrorOut, **DENIED},
    summary="Export the audit log as CSV (managers)",
)
def audit_export(request: HttpRequest, filters: Query[AuditQuery]) -> StreamingHttpResponse:
    """Exactly the entries the same filters find, oldest first, streamed as UTF-8 CSV."""
    require_role(request, Role.MANAGER)
    return export_response(request, selectors.audit_search(_parsed(filters)))


def _parsed(query: AuditQuery) -> AuditFilters:
    form = AuditSearchForm(query.model_dump(exclude_none=True))
    if not form.is_valid():
        problems = "; ".join(
            error["message"] if field == "__all__" else f"{field}: {error['message']}"
            for field, errors in form.errors.get_json_data().items()
            for error in errors
        )
        raise DomainError("invalid_request", problems)
    return form.filters()


def _entry(entry: AuditEntry) -> AuditEntryOut:
    return AuditEntryOut(
        seq=entry.seq,
        created_at=entry.created_at.isoformat(),
        action=entry.action,
        actor=entry.actor,
        inquiry_id=str(entry.inquiry_id) if entry.inquiry_id else None,
        operation_id=entry.operation_id,
        verdict=entry.verdict,
        reason=entry.reason,
        data=entry.data,
        prev_hash=entry.prev_hash,
        hash=entry.hash,
    )
