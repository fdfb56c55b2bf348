"""Les appels du contrat d’acceptation, exactement tels qu’ils seront faits."""

from __future__ import annotations

from calculators import run


def test_ability_modifier_18() -> None:
    assert run("ability_modifier", {"score": 18})["modifier"] == 4


def test_damage_order_example() -> None:
    result = run(
        "damage",
        {
            "hp": 30,
            "hp_max": 30,
            "amount": 28,
            "adjustment": -5,
            "resistant": True,
            "vulnerable": True,
        },
    )
    assert result["damage_taken"] == 22


def test_massive_damage_example() -> None:
    assert run("damage", {"hp": 6, "hp_max": 12, "amount": 18})["dead"] is True


def test_temporary_hp_example() -> None:
    result = run("damage", {"hp": 20, "hp_max": 20, "temp_hp": 5, "amount": 7})
    assert result["hp"] == 18
    assert result["temp_hp"] == 0


def test_healing_cap_example() -> None:
    result = run("healing", {"hp": 14, "hp_max": 20, "amount": 8})
    assert result["hp"] == 20
    assert result["healed"] == 6


def test_grid_example() -> None:
    assert run("grid", {"speed_m": 9})["squares"] == 6


def test_heroism_points_level_5() -> None:
    assert run("heroism_points", {"level": 5})["points"] == 2


def test_ritual_time_example() -> None:
    assert run("ritual_time", {"spell_levels": [1, 1, 2]})["hours"] == 2


def test_encumbrance_example() -> None:
    inputs = {
        "strength": 18,
        "items": [
            {"name": "dague", "level": 2, "qty": 10},
            {"name": "ration", "level": 2, "qty": 6},
            {"name": "potion", "level": 1, "qty": 30},
        ],
        "armor": "medium",
    }
    assert run("encumbrance", inputs)["load"] == "heavy"


def test_dice_2d6_plus_3() -> None:
    result = run("dice", {"expression": "2d6+3"})
    assert result["min"] == 5
    assert result["max"] == 15
    assert result["mean"] == 10
