"""The CSV export: exactly the filtered rows, streamed, readable by Excel and by a support
lead (customer, order, amount, decision, reason columns; the operator's reason text).

Rows are read by ``seq`` in keyset chunks (``seq > last`` ... ``LIMIT 2000``) rather than with
one server-side cursor: each chunk is its own short query, so nothing is held open between
chunks, which matters under ASGI where successive chunks may be produced on different
threads. Rows appended while the export runs are left out (the head is fixed first).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import AsyncIterator, Iterator

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.db.models import QuerySet
from django.http import HttpRequest, StreamingHttpResponse
from django.utils import timezone

from netshop.audit.models import AuditEntry
from operators.audit.rows import ReadableRow, readable_rows

# The readable columns first (as a support lead reads an entry), then the chain's own.
COLUMNS = (
    "seq",
    "time",
    "actor",
    "action",
    "customer",
    "order",
    "amount_yen",
    "decision",
    "reason_category",
    "verdict",
    "reason_or_note",
    "inquiry_id",
    "operation_id",
    "data",
    "prev_hash",
    "hash",
)
CHUNK_ROWS = 2000
BOM = "\ufeff"  # tells Excel the file is UTF-8, so Japanese shows as Japanese
# A spreadsheet runs a cell starting with these as a formula (CSV injection): quote them.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_chunks(entries: QuerySet[AuditEntry]) -> Iterator[str]:
    """BOM and header, then the entries in ``seq`` order, one text chunk per query."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(COLUMNS)
    yield BOM + _drain(buffer)
    head = entries.order_by("-seq").values_list("seq", flat=True).first()
    last = 0
    while head is not None and last < head:
        chunk = list(entries.filter(seq__gt=last, seq__lte=head).order_by("seq")[:CHUNK_ROWS])
        if not chunk:
            return
        writer.writerows(_row(row) for row in readable_rows(chunk))
        yield _drain(buffer)
        last = chunk[-1].seq


def export_response(request: HttpRequest, entries: QuerySet[AuditEntry]) -> StreamingHttpResponse:
    """The export of ``entries`` as a dated CSV attachment (the page's and the API's)."""
    filename = f"audit-{timezone.localtime():%Y%m%d-%H%M%S}.csv"
    return csv_response(request, csv_chunks(entries), filename)


def csv_response(
    request: HttpRequest, chunks: Iterator[str], filename: str
) -> StreamingHttpResponse:
    """A streamed attachment; under ASGI the chunks are pulled one by one off the event loop.

    (Django collects a synchronous iterator into one list before an ASGI server sends it, which
    would hold the whole export in memory.)
    """
    content = _pulled_async(chunks) if isinstance(request, ASGIRequest) else chunks
    response = StreamingHttpResponse(content, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"
    return response


def _row(row: ReadableRow) -> list[object]:
    entry = row.entry
    return [
        entry.seq,
        timezone.localtime(entry.created_at).isoformat(),
        _cell(entry.actor),
        _cell(entry.action),
        _cell(row.customer),
        _cell(row.order),
        "" if row.amount is None else row.amount,
        _cell(row.decision),
        _cell(row.reason_category),
        _cell(row.verdict),
        _cell(row.staff_text),
        str(entry.inquiry_id or ""),
        _cell(entry.operation_id),
        _cell(json.dumps(entry.data, ensure_ascii=False, sort_keys=True)),
        entry.prev_hash,
        entry.hash,
    ]


def _cell(text: str) -> str:
    return "'" + text if text.startswith(FORMULA_START) else text


def _drain(buffer: io.StringIO) -> str:
    text = buffer.getvalue()
    buffer.seek(0)
    buffer.truncate()
    return text


async def _pulled_async(chunks: Iterator[str]) -> AsyncIterator[str]:
    pull = sync_to_async(_next_or_none, thread_sensitive=True)
    while (chunk := await pull(chunks)) is not None:
        yield chunk


def _next_or_none(chunks: Iterator[str]) -> str | None:
    return next(chunks, None)
