"""Django admin for what the operators' side keeps: the canned-reply library, per language.

Leads (managers) keep the library; operators may read it. The roles decide, not Django's
per-model permissions, which the role groups do not carry for this app.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from netshop.roles import Role, user_has_role
from operators.models import CannedReply


@admin.register(CannedReply)
class CannedReplyAdmin(admin.ModelAdmin):
    list_display = ("title", "language", "active", "updated_at")
    list_filter = ("language", "active")
    search_fields = ("title", "body")

    def has_module_permission(self, request: HttpRequest) -> bool:
        return user_has_role(request.user, Role.OPERATOR)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return user_has_role(request.user, Role.OPERATOR)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return user_has_role(request.user, Role.MANAGER)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return user_has_role(request.user, Role.MANAGER)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return user_has_role(request.user, Role.MANAGER)
