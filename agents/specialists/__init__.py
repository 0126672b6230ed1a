"""The four specialists, by agent name."""

from agents.graph.schemas import AgentName
from agents.specialists import faq, order, payment, shipping
from agents.specialists.spec import Specialist

SPECIALISTS: dict[AgentName, Specialist] = {
    "order": order.SPECIALIST,
    "shipping": shipping.SPECIALIST,
    "payment": payment.SPECIALIST,
    "faq": faq.SPECIALIST,
}
