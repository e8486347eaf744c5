"""R17's bill: recruits cancelled, then bids cut, then units disbanded."""

from __future__ import annotations

from moonshine.variants.moonshine.upkeep import settle


def test_enough_cash_pays_everything() -> None:
    bill = settle(2100, 6, 2, [300, 200])  # $21 = $12 + $4 + $5
    assert (bill.upkeep, bill.kept_recruits, bill.paid_bids, bill.unpaid_units) == (1200, 2, (300, 200), 0)
    assert bill.recruit_cost == 400


def test_recruits_go_first_then_bids_are_cut_last_first() -> None:
    # $16.50 - $12 upkeep = $4.50 for two recruits ($4) and bids of $2 and $3.
    bill = settle(1650, 6, 2, [200, 300])
    assert bill.kept_recruits == 0
    assert bill.paid_bids == (200, 250)
    assert bill.unpaid_units == 0


def test_unpaid_upkeep_disbands_units() -> None:
    bill = settle(900, 6, 1, [500])  # $9 for $12 of upkeep: two units cannot be paid
    assert (bill.kept_recruits, bill.paid_bids, bill.unpaid_units) == (0, (0,), 2)
