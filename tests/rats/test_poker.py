"""Dominance hands: every poker category, the wheel straight, kickers and partial hands."""

from __future__ import annotations

from itertools import pairwise

import pytest

from companion.games.rats import poker


def name(cards: str) -> str:
    return poker.hand_name(cards.split())


def stronger(a: str, b: str) -> bool:
    return poker.best(a.split())[0] > poker.best(b.split())[0]


@pytest.mark.parametrize(
    ("cards", "said"),
    [
        ("Ah Kh Qh Jh 10h", "royal flush"),
        ("9c 8c 7c 6c 5c", "straight flush, 9 high"),
        ("Ad 2d 3d 4d 5d", "straight flush, 5 high"),
        ("Ks Kh Kd Kc 2s", "four kings"),
        ("Qs Qh Qd 5c 5s", "full house, queens over fives"),
        ("2s 9s Js 4s 6s", "flush, jack high"),
        ("10d 9c 8s 7h 6d", "straight, 10 high"),
        ("As 2c 3d 4h 5s", "straight, 5 high"),
        ("7s 7h 7d Kc 2s", "three sevens"),
        ("Kd Ks 5h 5c 9s", "two pair, kings and fives"),
        ("Ac Ad 9s 7h 2c", "pair of aces"),
        ("Ac Jd 9s 7h 2c", "high card, ace"),
    ],
)
def test_every_category_is_named(cards: str, said: str) -> None:
    assert name(cards) == said


def test_categories_rank_in_poker_order() -> None:
    ladder = [
        "Ac Jd 9s 7h 2c",
        "Ac Ad 9s 7h 2c",
        "Kd Ks 5h 5c 9s",
        "7s 7h 7d Kc 2s",
        "As 2c 3d 4h 5s",
        "2s 9s Js 4s 6s",
        "Qs Qh Qd 5c 5s",
        "Ks Kh Kd Kc 2s",
        "9c 8c 7c 6c 5c",
    ]
    for lower, higher in pairwise(ladder):
        assert stronger(higher, lower), (higher, lower)


def test_the_wheel_is_the_lowest_straight() -> None:
    assert stronger("6s 2c 3d 4h 5s", "As 2c 3d 4h 5s")
    assert stronger("As Kc Qd Jh 10s", "Ks Qc Jd 10h 9s")


def test_kickers_decide_between_equal_pairs_and_high_cards() -> None:
    assert stronger("Ac Ad Ks 7h 2c", "Ah As Qs Jh 10c")
    assert stronger("Kd Ks 5h 5c Qs", "Kh Kc 5d 5s Js")
    assert stronger("Ac Jd 9s 7h 3c", "As Jc 9d 7s 2h")
    assert not stronger("Ac Jd 9s 7h 2c", "As Jc 9d 7s 2h")  # equal: neither is stronger


def test_the_best_five_of_more_cards_count() -> None:
    found, five = poker.best(["2c", "2d", "9s", "9h", "9c", "Kd", "3s"])
    assert poker.describe(found) == "full house, nines over twos"
    assert sorted(five) == sorted(["2c", "2d", "9s", "9h", "9c"])


def test_partial_hands_rank_by_pairs_and_high_cards() -> None:
    assert name("Kc Kd") == "pair of kings"
    assert name("Ac") == "high card, ace"
    assert stronger("2c 2d", "Ac Kd Qs Jh")  # a pair beats four unpaired cards
    assert stronger("Kc Kd 3s", "Kh Ks")  # the kicker counts
    assert not stronger("Kc Kd", "Kh Ks")  # equal
    assert stronger("3c", "") and name("") == "no cards"


def test_four_cards_of_a_suit_or_run_are_not_a_flush_or_straight() -> None:
    assert name("2h 5h 9h Kh") == "high card, king"
    assert name("5c 6d 7h 8s") == "high card, 8"
