"""Who a run serves, as its tools read it: the intake's customer, read once per run.

Given a run's config built by whoever drives it, when a tool asks for the run's customer,
then it gets the row the driver read with the inquiry without reading it again, and a config
that does not carry that row (or carries another customer's) is answered from the database
by the run's own customer code, never by the row it was handed.
"""

from __future__ import annotations

import pytest

from agents.team.run_context import RUN_CUSTOMER, run_config, run_context, run_customer
from tests.factories import CustomerFactory

pytestmark = pytest.mark.django_db


def test_the_drivers_row_is_the_runs_customer_without_another_read(
    django_assert_num_queries,
) -> None:
    customer = CustomerFactory.create(code="C0101")
    config = run_config(inquiry_id="i-1", customer_id="C0101", customer=customer)

    with django_assert_num_queries(0):
        assert run_customer(config) is customer


def test_a_config_without_the_row_reads_the_customer_by_its_code(
    django_assert_num_queries,
) -> None:
    customer = CustomerFactory.create(code="C0102")
    config = run_config(inquiry_id="i-2", customer_id="C0102")

    with django_assert_num_queries(1):
        assert run_customer(config) == customer


def test_a_row_of_another_customer_is_never_taken_for_the_runs() -> None:
    mine, theirs = CustomerFactory.create(code="C0103"), CustomerFactory.create(code="C0104")
    config = run_config(inquiry_id="i-3", customer_id="C0103", customer=theirs)
    config["configurable"][RUN_CUSTOMER] = theirs  # as if a step had swapped it

    assert RUN_CUSTOMER in config["configurable"]
    assert run_customer(config) == mine
    assert run_context(config).customer_id == "C0103"
