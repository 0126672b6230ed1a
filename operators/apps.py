from django.apps import AppConfig


class OperatorsConfig(AppConfig):
    name = "operators"
    verbose_name = "Operator console and audit"

    def ready(self) -> None:
        from axes.signals import user_locked_out
        from django.contrib.auth.signals import user_logged_in

        from agents.support.events.bus import event_published
        from netshop.demo.signals import demo_seeded
        from operators.audit.signals import record_console_login, record_login_locked_out
        from operators.demo import canned_replies_seed
        from operators.notifications.services import on_event_published
        from operators.signals import connect_access_signals

        user_logged_in.connect(record_console_login, dispatch_uid="operators.audit.console_login")
        user_locked_out.connect(
            record_login_locked_out, dispatch_uid="operators.audit.login_locked_out"
        )
        connect_access_signals()
        event_published.connect(on_event_published, dispatch_uid="operators.notifications")
        demo_seeded.connect(canned_replies_seed, dispatch_uid="operators.demo.canned_replies")
