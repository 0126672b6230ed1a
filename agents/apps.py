from django.apps import AppConfig


class AgentsConfig(AppConfig):
    name = "agents"
    verbose_name = "Agent runs"

    def ready(self) -> None:
        """Plug the upper layers into the ports the support domain declares: the AI team's
        reply writer for decision previews, the storefront's subscriber on the event bus, and the
        listener that hears a customer's reply reject an AI answer."""
        from agents.support.conversations.services import customer_message_stored
        from agents.support.conversations.storefront_events import on_event_publishing
        from agents.support.escalations.customer_feedback import on_customer_message
        from agents.support.escalations.reply_previews import reply_previewer_register
        from agents.support.events.bus import event_publishing

        reply_previewer_register("agents.team.runs.preview.decision_reply_preview")
        event_publishing.connect(on_event_publishing, dispatch_uid="agents.storefront_events")
        customer_message_stored.connect(on_customer_message, dispatch_uid="agents.not_solved")
