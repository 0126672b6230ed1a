"""The four specialists, by agent name."""

from agents.contract.schemas import AgentName
from agents.team.specialists import faq, order, payment, shipping
from agents.team.specialists.spec import Specialist

SPECIALISTS: dict[AgentName, Specialist] = {
    "order": order.SPECIALIST,
    "shipping": shipping.SPECIALIST,
    "payment": payment.SPECIALIST,
    "faq": faq.SPECIALIST,
}
