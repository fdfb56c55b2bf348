"""Épées intelligentes (OSE) : génération d’une épée et chances qu’elle prenne le contrôle."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Final, Literal

from regles.kit.schema import (
    Calculator,
    Chart,
    Choice,
    Field,
    JsonDict,
    Output,
    Values,
    probability,
    seed_field,
)

__all__ = [
    "ALIGNMENTS",
    "CALCULATORS",
    "INT_RANGE",
    "LANGUAGES_OVERLAP_NOTE",
    "SPECIAL_PURPOSE_EGO",
    "SPECIAL_PURPOSE_INT",
    "Alignment",
    "Sword",
    "Wounded",
    "alignment_for_roll",
    "communication",
    "control_probability",
    "generate_sword",
    "languages_for_roll",
    "languages_text",
    "powers",
    "powers_text",
    "reads",
    "sword_will",
    "touch_damage",
    "wielder_will",
    "will_distribution",
    "will_gap",
]

Alignment = Literal["lawful", "neutral", "chaotic"]
Wounded = Literal["healthy", "wounded", "below_half"]

LANGUAGES_OVERLAP_NOTE: Final = (
    "La table des langues place le résultat 95 à la fois dans « 86–95 » (+4) et dans "
    "« 95–99 » (+5). Le calculateur lit la table de haut en bas et retient la première "
    "ligne : 95 donne Langue d’alignement +4, et la ligne +5 couvre 96 à 99."
)

INT_RANGE = range(7, 13)
SPECIAL_PURPOSE_INT = 12
SPECIAL_PURPOSE_EGO = 12
_SPEECH_INT = 10
_READING_INT = 11

ALIGNMENTS: Mapping[Alignment, str] = MappingProxyType(
    {"lawful": "Loyal", "neutral": "Neutre", "chaotic": "Chaotique"}
)

# d100 → extra languages; 95 is in the first matching row (see the note), and
# 00 (rolled as 100) means "roll twice and add".
_LANGUAGE_ROWS: tuple[tuple[int, int, int], ...] = (
    (1, 50, 1),
    (51, 70, 2),
    (71, 85, 3),
    (86, 95, 4),
    (95, 99, 5),
)
_ALIGNMENT_ROWS: tuple[tuple[int, int, Alignment], ...] = (
    (1, 13, "lawful"),
    (14, 18, "neutral"),
    (19, 20, "chaotic"),
)


def reads(intelligence: int) -> bool:
    """Reading (all its languages and magic inscriptions) comes with INT 11."""
    return intelligence >= _READING_INT


def communication(intelligence: int) -> str:
    """Means of communication by INT, worded as in the table: Empathie or Discours."""
    return "Discours" if intelligence >= _SPEECH_INT else "Empathie"


def powers(intelligence: int) -> tuple[int, int]:
    """Sensory and extraordinary powers by INT: 7 → 1, 8 → 2, 9+ → 3; 12 adds 1 extraordinary."""
    sensory = max(1, min(3, intelligence - 6))
    extraordinary = 1 if intelligence >= SPECIAL_PURPOSE_INT else 0
    return sensory, extraordinary


def powers_text(intelligence: int) -> str:
    """Powers worded as in the table, e.g. "3 pouvoirs sensoriels + 1 extraordinaire"."""
    sensory, extraordinary = powers(intelligence)
    text = f"{sensory} pouvoir sensoriel" if sensory == 1 else f"{sensory} pouvoirs sensoriels"
    if extraordinary:
        text += f" + {extraordinary} extraordinaire"
    return text


def languages_for_roll(roll: int) -> int | None:
    """Extra languages for a d100 result (1–100, 100 being 00); None means "roll twice"."""
    for low, high, extra in _LANGUAGE_ROWS:
        if low <= roll <= high:
            return extra
    return None


def languages_text(extra: int) -> str:
    """Languages worded as in the table: "Langue d’alignement +N"."""
    return f"Langue d’alignement +{extra}"


def alignment_for_roll(roll: int) -> Alignment:
    """Alignment for a d20 result."""
    for low, high, alignment in _ALIGNMENT_ROWS:
        if low <= roll <= high:
            return alignment
    return "chaotic"


@dataclass(frozen=True)
class Sword:
    """A generated sentient sword and the dice that made it."""

    special_purpose: bool
    intelligence: int
    int_roll: int | None
    reading: bool
    communication: str
    language_rolls: tuple[int, ...]
    languages_extra: int | None
    alignment: Alignment
    alignment_roll: int
    sensory_powers: int
    extraordinary_powers: int
    ego: int
    ego_roll: int | None


def _roll_languages(rng: random.Random) -> tuple[int, list[int]]:
    rolls: list[int] = []
    extra = 0
    pending = 1
    # Each 00 replaces itself by two more rolls; this ends with probability 1.
    while pending:
        pending -= 1
        roll = rng.randint(1, 100)
        rolls.append(roll)
        value = languages_for_roll(roll)
        if value is None:
            pending += 2
        else:
            extra += value
    return extra, rolls


def generate_sword(rng: random.Random, special_purpose: bool = False) -> Sword:
    """Create a sword following the steps of the document, in their order."""
    int_roll = None if special_purpose else rng.randint(1, 6)
    intelligence = SPECIAL_PURPOSE_INT if int_roll is None else int_roll + 6
    speech = communication(intelligence)
    extra: int | None = None
    language_rolls: list[int] = []
    # Only a speaking sword knows languages: the table belongs to "Discours".
    if speech == "Discours":
        extra, language_rolls = _roll_languages(rng)
    alignment_roll = rng.randint(1, 20)
    sensory, extraordinary = powers(intelligence)
    ego_roll = None if special_purpose else rng.randint(1, 12)
    return Sword(
        special_purpose=special_purpose,
        intelligence=intelligence,
        int_roll=int_roll,
        reading=reads(intelligence),
        communication=speech,
        language_rolls=tuple(language_rolls),
        languages_extra=extra,
        alignment=alignment_for_roll(alignment_roll),
        alignment_roll=alignment_roll,
        sensory_powers=sensory,
        extraordinary_powers=extraordinary,
        ego=SPECIAL_PURPOSE_EGO if ego_roll is None else ego_roll,
        ego_roll=ego_roll,
    )


def _dice_sum(count: int, sides: int) -> Counter[int]:
    ways: Counter[int] = Counter({0: 1})
    for _ in range(count):
        nxt: Counter[int] = Counter()
        for total, w in ways.items():
            for face in range(1, sides + 1):
                nxt[total + face] += w
        ways = nxt
    return ways


def will_distribution(base: int, count: int, sides: int, sign: int) -> dict[int, Fraction]:
    """Law of ``base + sign × (count d sides)``."""
    ways = _dice_sum(count, sides)
    total = sum(ways.values())
    return {base + sign * k: Fraction(w, total) for k, w in ways.items()}


def sword_will(
    intelligence: int, ego: int, extraordinary: int, alignments_differ: bool
) -> dict[int, Fraction]:
    """Sword's Willpower: INT + Ego + 1 per extraordinary power (+1d10 if alignments differ)."""
    return will_distribution(
        intelligence + ego + extraordinary, 1 if alignments_differ else 0, 10, 1
    )


def wielder_will(strength: int, wisdom: int, wounded: Wounded) -> dict[int, Fraction]:
    """Wielder's Willpower: STR + WIS, −1d4 if hurt, −2d4 below half hit points."""
    count = {"healthy": 0, "wounded": 1, "below_half": 2}[wounded]
    return will_distribution(strength + wisdom, count, 4, -1)


def will_gap(sword: dict[int, Fraction], wielder: dict[int, Fraction]) -> dict[int, Fraction]:
    """Law of the sword's Willpower minus the wielder's: the sword takes control from 1 on."""
    gap: dict[int, Fraction] = {}
    for s, ps in sword.items():
        for w, pw in wielder.items():
            gap[s - w] = gap.get(s - w, Fraction(0)) + ps * pw
    return dict(sorted(gap.items()))


def control_probability(sword: dict[int, Fraction], wielder: dict[int, Fraction]) -> Fraction:
    """Chance that the sword's Willpower is strictly higher (then it takes control)."""
    return sum(
        (ps * pw for s, ps in sword.items() for w, pw in wielder.items() if s > w),
        Fraction(0),
    )


def touch_damage(sword: Alignment, character: Alignment) -> str | None:
    """Damage per round when touching the sword, as a dice expression (None if none)."""
    if sword == character:
        return None
    if sword == "neutral":
        return "1d6"
    # A lawful or chaotic sword hurts neutrals a little and its opposite more.
    return "1d6" if character == "neutral" else "2d6"


def _alignment(value: str | None) -> Alignment | None:
    for key in ALIGNMENTS:
        if key == value:
            return key
    return None


def _wounded(value: str) -> Wounded:
    if value == "wounded":
        return "wounded"
    if value == "below_half":
        return "below_half"
    return "healthy"


def _h_generate(v: Values) -> JsonDict:
    seed = v.get_opt_int("seed")
    rng = random.Random(seed) if seed is not None else random.Random()
    s = generate_sword(rng, v.get_bool("special_purpose"))
    return {
        "special_purpose": s.special_purpose,
        "intelligence": s.intelligence,
        "int_roll": s.int_roll,
        "reading": s.reading,
        "reading_text": "Oui" if s.reading else "Non",
        "communication": s.communication,
        "language_rolls": list(s.language_rolls),
        "language_rolls_text": ", ".join(
            "00" if r == 100 else f"{r:02d}" for r in s.language_rolls
        ),
        "languages_extra": s.languages_extra,
        "languages": None if s.languages_extra is None else languages_text(s.languages_extra),
        "alignment": s.alignment,
        "alignment_label": ALIGNMENTS[s.alignment],
        "alignment_roll": s.alignment_roll,
        "sensory_powers": s.sensory_powers,
        "extraordinary_powers": s.extraordinary_powers,
        "powers": powers_text(s.intelligence),
        "ego": s.ego,
        "ego_roll": s.ego_roll,
        "willpower_base": s.intelligence + s.ego + s.extraordinary_powers,
    }


def _h_control(v: Values) -> JsonDict:
    sword_alignment = _alignment(v.get_opt_str("sword_alignment"))
    character_alignment = _alignment(v.get_opt_str("character_alignment"))
    if sword_alignment is not None and character_alignment is not None:
        differ = sword_alignment != character_alignment
        damage = touch_damage(sword_alignment, character_alignment)
    else:
        differ = v.get_bool("alignments_differ")
        damage = None
    sword = sword_will(
        v.get_int("sword_int"), v.get_int("ego"), v.get_int("extraordinary_powers"), differ
    )
    wielder = wielder_will(
        v.get_int("wielder_str"), v.get_int("wielder_wis"), _wounded(v.get_str("wounded"))
    )
    out: JsonDict = probability("p_control", control_probability(sword, wielder))
    gap = will_gap(sword, wielder)
    out.update(
        {
            # For the chart: the law of the gap, and the least gap at which the sword wins.
            "will_gap": {"totals": list(gap), "p": [float(p) for p in gap.values()]},
            "control_gap": 1,
            "alignments_differ": differ,
            "sword_will_min": min(sword),
            "sword_will_max": max(sword),
            "wielder_will_min": min(wielder),
            "wielder_will_max": max(wielder),
            "touch_damage": damage,
        }
    )
    return out


_ALIGNMENT_CHOICES = tuple(Choice(k, label) for k, label in ALIGNMENTS.items())

CALCULATORS = (
    Calculator(
        id="sentient_sword",
        title="Créer une épée intelligente",
        headline=("intelligence", "ego", "alignment_label"),
        rolled=(
            "intelligence",
            "reading_text",
            "communication",
            "languages",
            "alignment_label",
            "powers",
            "ego",
        ),
        description=(
            "Tire l’Intelligence, la communication, les langues, l’alignement, les pouvoirs et "
            "l’Ego d’une épée."
        ),
        inputs=(
            Field(
                "special_purpose",
                "But spécial",
                "bool",
                default=False,
                help="Une épée dotée d’un but spécial a toujours INT 12 et Ego 12.",
            ),
            seed_field(),
        ),
        outputs=(
            Output("intelligence", "INT"),
            Output("reading_text", "Lecture"),
            Output("communication", "Communication"),
            Output("languages", "Langues"),
            Output("alignment_label", "Alignement"),
            Output("powers", "Pouvoirs", sentence=True),
            Output("ego", "Ego"),
        ),
        handler=_h_generate,
    ),
    Calculator(
        id="sword_control",
        title="Test de contrôle d’une épée intelligente",
        headline=("p_control",),
        description=(
            "Calcule la probabilité exacte que la Volonté de l’épée dépasse celle du porteur."
        ),
        inputs=(
            Field(
                "sword_int",
                "INT de l’épée",
                "int",
                default=10,
                min=INT_RANGE.start,
                max=INT_RANGE.stop - 1,
            ),
            Field("ego", "Ego de l’épée", "int", default=6, min=1, max=12),
            Field(
                "extraordinary_powers", "Pouvoirs extraordinaires", "int", default=0, min=0, max=10
            ),
            Field(
                "alignments_differ",
                "Alignements différents",
                "bool",
                default=False,
                help="Ignoré si les deux alignements sont indiqués.",
            ),
            Field(
                "sword_alignment",
                "Alignement de l’épée",
                "choice",
                required=False,
                choices=_ALIGNMENT_CHOICES,
                help="Facultatif : avec celui du porteur, il donne les dégâts au toucher.",
            ),
            Field(
                "character_alignment",
                "Alignement du porteur",
                "choice",
                required=False,
                choices=_ALIGNMENT_CHOICES,
                help=(
                    "Facultatif : non indiqués, la case ci-dessus dit si les alignements diffèrent."
                ),
            ),
            Field("wielder_str", "FOR du porteur", "int", default=10, min=1, max=25),
            Field("wielder_wis", "SAG du porteur", "int", default=10, min=1, max=25),
            Field(
                "wounded",
                "Points de vie du porteur",
                "choice",
                default="healthy",
                choices=(
                    Choice("healthy", "Au maximum"),
                    Choice("wounded", "Sous le maximum (−1d4)"),
                    Choice("below_half", "Sous la moitié du maximum (−2d4)"),
                ),
            ),
        ),
        outputs=(
            Output("p_control", "Probabilité que l’épée prenne le contrôle"),
            Output("touch_damage", "Dégâts par round au toucher"),
            Output(
                "will_gap",
                "Chances de chaque écart de Volonté",
                chart=Chart(
                    "Volonté de l’épée − Volonté du porteur",
                    threshold="control_gap",
                    chance="p_control",
                    chance_text="que l’épée prenne le contrôle",
                ),
            ),
        ),
        handler=_h_control,
    ),
)

# How a contradiction of the documents was settled, shown on the rule page (```note).
NOTES: Mapping[str, str] = MappingProxyType({"sword_languages_overlap": LANGUAGES_OVERLAP_NOTE})
