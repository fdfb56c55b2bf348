"""Tables de règles calculées à partir du code des calculateurs, pour les pages du site."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from regles.kit import Follows, Table, fmt_number
from regles.kit import group_runs as _group_runs
from regles.kit import span as _span

from . import dnd5e, encumbrance, lankhmar, sentient_sword

__all__ = ["TABLES"]


def _ability_modifiers() -> Table:
    runs = _group_runs(range(1, 31), dnd5e.ability_modifier)
    return Table(
        "Modificateurs de caractéristique",
        ["Valeur", "Modificateur"],
        [[_span(a, b), dnd5e.signed(dnd5e.ability_modifier(a))] for a, b, _ in runs],
    )


def _proficiency_bonus() -> Table:
    rows: list[list[str]] = []
    cr_runs = _group_runs(range(1, 31), dnd5e.proficiency_bonus)
    for first, last, _ in cr_runs:
        bonus = dnd5e.proficiency_bonus(first)
        # Levels stop at 20; challenge ratings start at 0 (fractions included).
        level = _span(first, min(last, 20)) if first <= 20 else "—"
        cr = _span(0 if first == 1 else first, last)
        rows.append([level, cr, dnd5e.signed(bonus)])
    return Table("Bonus de maîtrise", ["Niveau", "Facteur de puissance", "Bonus de maîtrise"], rows)


def _encumbrance_limits() -> Table:
    runs = _group_runs(range(-5, 11), encumbrance.strength_adjustment)
    headers = ["Niveau", "Encombrement"]
    for first, last, _ in runs:
        mods = (
            dnd5e.signed(first)
            if first == last
            else f"{dnd5e.signed(first)} à {dnd5e.signed(last)}"
        )
        headers.append(f"Modificateur de Force {mods}")
    rows = [
        [str(level.number), level.name]
        + [str(encumbrance.limits(level.number, first)) for first, _, _ in runs]
        for level in encumbrance.LEVELS
    ]
    # On a phone, the level and its name, and the column of the reader's own Force.
    strength = next(f for f in encumbrance.CALCULATORS[0].inputs if f.name == "strength")
    low, high = int(strength.min or 1), int(strength.max or 30)
    column = {
        score: 2 + next(i for i, (a, b, _) in enumerate(runs) if a <= modifier <= b)
        for score in range(low, high + 1)
        if runs[0][0] <= (modifier := dnd5e.ability_modifier(score)) <= runs[-1][1]
    }
    return Table(
        "Limites de quantité selon le modificateur de Force (légère/intermédiaire/lourde)",
        headers,
        rows,
        key_columns=2,
        follows=Follows("encumbrance", "strength", column),
    )


def _sword_communication() -> Table:
    rows = [
        [str(i), "Oui" if sentient_sword.reads(i) else "Non", sentient_sword.communication(i)]
        for i in sentient_sword.INT_RANGE
    ]
    return Table("Communication des épées intelligentes", ["INT", "Lecture", "Communication"], rows)


def _sword_powers() -> Table:
    rows = [[str(i), sentient_sword.powers_text(i)] for i in sentient_sword.INT_RANGE]
    return Table("Pouvoirs des épées intelligentes", ["INT", "Pouvoirs"], rows)


def _corruption_tiers() -> Table:
    rows = []
    for tier in range(1, 7):
        low = tier * lankhmar.POINTS_PER_TIER
        malus = lankhmar.tier_malus(tier)
        rows.append(
            [
                str(tier),
                _span(low, low + lankhmar.POINTS_PER_TIER - 1),
                fmt_number(-malus) if malus else "0",
                str(tier),
                str(lankhmar.tier_wisdom_lost(tier)),
            ]
        )
    return Table(
        "Paliers de corruption (effets cumulés)",
        [
            "Palier",
            "Points de corruption",
            "Malus au jet d’INT",
            "Altérations subies",
            "SAG perdue",
        ],
        rows,
    )


TABLES: Mapping[str, Callable[[], Table]] = MappingProxyType(
    {
        "ability_modifiers": _ability_modifiers,
        "proficiency_bonus": _proficiency_bonus,
        "encumbrance_limits": _encumbrance_limits,
        "sword_communication": _sword_communication,
        "sword_powers": _sword_powers,
        "corruption_tiers": _corruption_tiers,
    }
)
