"""Django admin for what the operators' side keeps: the canned-reply library, per language."""

from __future__ import annotations

from django.contrib import admin

from operators.models import CannedReply


@admin.register(CannedReply)
class CannedReplyAdmin(admin.ModelAdmin):
    list_display = ("title", "language", "active", "updated_at")
    list_filter = ("language", "active")
    search_fields = ("title", "body")
