"""Règle maison du poids transportable : limites par niveau d’encombrement et charge finale."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, Literal

from regles.kit.schema import (
    Calculator,
    Choice,
    Field,
    JsonDict,
    Output,
    Values,
    fmt_number,
    frozen_record,
)

from .dnd5e import ability_modifier, signed

__all__ = [
    "ARMOR_LOADS",
    "CALCULATORS",
    "CATEGORIES",
    "COINS_PER_UNIT",
    "IMPOSSIBLE_LEVEL",
    "LEVELS",
    "LOADS",
    "PRESET_CATEGORIES",
    "PRESET_ITEMS",
    "STRENGTH_EXAMPLE_NOTE",
    "Category",
    "CategoryInfo",
    "Group",
    "Item",
    "Level",
    "Limits",
    "Load",
    "adjustment_text",
    "effective_level",
    "final_load",
    "group_items",
    "limits",
    "load_for",
    "strength_adjustment",
]

Load = Literal["light", "medium", "heavy", "over"]
Category = Literal[
    "item",
    "light_weapon",
    "one_handed_weapon",
    "two_handed_weapon",
    "light_armor",
    "medium_armor",
    "heavy_armor",
    "coins",
    "ammo_container",
]

STRENGTH_EXAMPLE_NOTE: Final = (
    "La règle ajoute le modificateur de Force ÷ 4 (arrondi à l’inférieur) à toutes les limites, "
    "ce qui donne 9/13/17 pour un objet d’encombrement léger avec 18 en Force, alors que "
    "l’exemple du document indique 9/13/16. Le calculateur applique la règle (9/13/17) : "
    "l’exemple semble avoir oublié d’ajuster la troisième valeur."
)


@dataclass(frozen=True)
class Level:
    """One of the 8 encumbrance levels, with its base limits light/medium/heavy."""

    number: int
    name: str
    base: tuple[int, int, int]


LEVELS: tuple[Level, ...] = (
    Level(0, "Insignifiant", (32, 48, 64)),
    Level(1, "Négligeable", (16, 24, 32)),
    Level(2, "Léger", (8, 12, 16)),
    Level(3, "Moyen", (4, 6, 8)),
    Level(4, "Important", (2, 3, 4)),
    Level(5, "Lourd", (0, 1, 2)),
    Level(6, "Très lourd", (0, 0, 1)),
    Level(7, "Impossible", (0, 0, 0)),
)
IMPOSSIBLE_LEVEL = 7

LOADS: Mapping[Load, str] = MappingProxyType(
    {
        "light": "Légère",
        "medium": "Intermédiaire",
        "heavy": "Lourde",
        "over": "Impossible à transporter",
    }
)
_LOAD_ORDER: tuple[Load, ...] = ("light", "medium", "heavy", "over")

# Equipped armour weighs like in the Player's Handbook: its own category.
ARMOR_LOADS: Mapping[str, Load] = MappingProxyType(
    {"none": "light", "light": "light", "medium": "medium", "heavy": "heavy"}
)


@dataclass(frozen=True)
class CategoryInfo:
    """How a category of objects counts: fixed level, and label of its shared limit."""

    label: str
    level: int | None
    group_label: str | None


CATEGORIES: Mapping[Category, CategoryInfo] = MappingProxyType(
    {
        "item": CategoryInfo("Objet", None, None),
        "light_weapon": CategoryInfo("Arme légère", 2, "Armes légères"),
        "one_handed_weapon": CategoryInfo("Arme à une main", 3, "Armes à une main"),
        "two_handed_weapon": CategoryInfo("Arme à deux mains", 4, "Armes à deux mains"),
        "light_armor": CategoryInfo("Armure légère", 4, "Armures légères"),
        "medium_armor": CategoryInfo("Armure intermédiaire", 5, "Armures intermédiaires"),
        "heavy_armor": CategoryInfo("Armure lourde", 6, "Armures lourdes"),
        "coins": CategoryInfo("Pièces (nombre de pièces)", 1, "Pièces"),
        "ammo_container": CategoryInfo(
            "Munitions (carquois, sac de billes)",
            3,
            "Conteneurs de munitions",
        ),
    }
)
COINS_PER_UNIT = 100


@dataclass(frozen=True)
class Limits:
    """Quantities allowed in light, medium and heavy load."""

    light: int
    medium: int
    heavy: int

    def __str__(self) -> str:
        return f"{self.light}/{self.medium}/{self.heavy}"


@dataclass(frozen=True)
class Item:
    """A line of the inventory."""

    name: str
    level: int
    qty: int
    category: Category = "item"
    size_steps: int = 0


@dataclass(frozen=True)
class Group:
    """Items counted under one limit, with the resulting load."""

    label: str
    category: Category
    level: int
    units: int
    limits: Limits
    load: Load
    names: tuple[str, ...]  # the names of its lines, each once
    count: int  # objects (for coins, pieces: `units` counts them by the hundred)

    def names_text(self) -> str:
        """The objects by their names, and the shared limit they are counted under."""
        names = ", ".join(self.names)
        return names if self.category == "item" else f"{names} ({self.label.lower()})"

    def quantity_text(self) -> str:
        """The quantity in the unit the limits count: coins by the hundred."""
        if self.category != "coins":
            return fmt_number(self.units)
        hundreds = "unité" if self.units == 1 else "unités"
        return f"{fmt_number(self.count)} pièces : {fmt_number(self.units)} {hundreds} de 100"


def strength_adjustment(modifier: int) -> int:
    """Strength modifier ÷ 4 rounded down (floor, so −1 gives −1 and +7 gives +1)."""
    return modifier // 4


def adjustment_text(modifier: int) -> str:
    """The adjustment of the limits in words, and where it comes from."""
    adjustment = strength_adjustment(modifier)
    added = "aucun" if adjustment == 0 else f"{signed(adjustment)} à chaque limite"
    return (
        f"{added} (modificateur de Force {signed(modifier)}, divisé par 4, arrondi à l’inférieur)"
    )


def limits(level: int, strength_modifier: int) -> Limits:
    """Limits of an encumbrance level for a strength modifier.

    The adjustment is added to every limit, including the base limits of 0 of
    levels 5 and 6 (a strong character may carry one heavy object in a lighter
    load). A penalty never takes a limit below 0, nor the maximum (third
    value) below 1. Level 7 stays 0/0/0 whatever the strength: it is
    "impossible à transporter".
    """
    base = LEVELS[level].base
    if level == IMPOSSIBLE_LEVEL:
        return Limits(*base)
    adj = strength_adjustment(strength_modifier)
    light, medium, heavy = (b + adj for b in base)
    return Limits(max(0, light), max(0, medium), max(1, heavy))


def load_for(units: int, lim: Limits) -> Load:
    """Load caused by carrying ``units`` objects under the limits ``lim``."""
    if units <= lim.light:
        return "light"
    if units <= lim.medium:
        return "medium"
    if units <= lim.heavy:
        return "heavy"
    return "over"


def effective_level(item: Item) -> int:
    """Level of an item for this character: category level, shifted one per size step."""
    fixed = CATEGORIES[item.category].level
    base = item.level if fixed is None else fixed
    return min(IMPOSSIBLE_LEVEL, max(0, base + item.size_steps))


def _units(category: Category, qty: int) -> int:
    # 100 coins make one unit; a partial hundred still needs room, and since
    # limits are whole numbers ceil(q / 100) <= L exactly when q <= 100 * L.
    return -(-qty // COINS_PER_UNIT) if category == "coins" else qty


def _same_object(name: str) -> str:
    """What two lines must share to be the same object: the name, whatever its case and
    spacing ("Torche" and "torche ")."""
    return " ".join(name.split()).casefold()


def _names(members: Sequence[Item]) -> tuple[str, ...]:
    """Each object of the lines once, as its first line writes it."""
    first: dict[str, str] = {}
    for member in members:
        first.setdefault(_same_object(member.name), " ".join(member.name.split()))
    return tuple(first.values())


def group_items(items: Sequence[Item], strength_modifier: int) -> list[Group]:
    """Count items under their limits.

    Ordinary items have a limit per object: lines of the same object (the same name) add
    up under one limit, two lines of 8 torches are 16 torches. Weapons and armour share
    one limit per category, coins of every metal one limit, ammunition containers one
    limit; items of another size category only share a limit with those of the same
    resulting level.
    """
    # Lines are grouped under a key, kept in order of first appearance.
    keyed: dict[tuple[Category, int, str], list[Item]] = {}
    for item in items:
        level = effective_level(item)
        same = _same_object(item.name) if item.category == "item" else ""
        keyed.setdefault((item.category, level, same), []).append(item)
    groups: list[Group] = []
    for (category, level, _), members in keyed.items():
        count = sum(m.qty for m in members)
        units = _units(category, count)
        lim = limits(level, strength_modifier)
        label = (
            members[0].name if category == "item" else CATEGORIES[category].group_label or category
        )
        groups.append(
            Group(
                label,
                category,
                level,
                units,
                lim,
                load_for(units, lim),
                _names(members),
                count,
            )
        )
    return groups


def final_load(groups: Sequence[Group], armor: str = "none") -> Load:
    """Highest load among the groups and the equipped armour (they do not add up)."""
    loads = [g.load for g in groups if g.units > 0]
    loads.append(ARMOR_LOADS.get(armor, "light"))
    return max(loads, key=_LOAD_ORDER.index)


def _category(value: str) -> Category:
    for key in CATEGORIES:
        if key == value:
            return key
    return "item"


def _handle(v: Values) -> JsonDict:
    strength = v.get_int("strength")
    override = v.get_opt_int("strength_modifier")
    modifier = ability_modifier(strength) if override is None else override
    items = [
        Item(
            name=row.get_str("name"),
            level=row.get_int("level"),
            qty=row.get_int("qty"),
            category=_category(row.get_str("category")),
            size_steps=row.get_int("size_steps"),
        )
        for row in v.get_list("items")
    ]
    groups = group_items(items, modifier)
    armor = v.get_str("armor")
    load = final_load(groups, armor)
    return {
        "load": load,
        "load_label": LOADS[load],
        "strength_modifier": modifier,
        "adjustment": strength_adjustment(modifier),
        "adjustment_text": adjustment_text(modifier),
        "armor_load": ARMOR_LOADS[armor],
        "armor_load_label": LOADS[ARMOR_LOADS[armor]],
        "groups": [
            {
                "label": g.label,
                "category": g.category,
                "level": g.level,
                "level_name": LEVELS[g.level].name,
                "units": g.units,
                "limits": [g.limits.light, g.limits.medium, g.limits.heavy],
                "limits_text": str(g.limits),
                "load": g.load,
                "load_label": LOADS[g.load],
                "items": list(g.names),
                "names_text": g.names_text(),
                "count": g.count,
                "quantity_text": g.quantity_text(),
            }
            for g in groups
        ],
        "limits_by_level": [
            {"level": lv.number, "name": lv.name, "limits_text": str(limits(lv.number, modifier))}
            for lv in LEVELS
        ],
    }


# The objects the rules name as examples of each level and category, offered by name in
# the form (« pavois »: an object of level 5). tests/content checks each against the text.
PRESET_ITEMS: Mapping[int, tuple[str, ...]] = MappingProxyType(
    {
        0: ("plume d’écriture", "parchemin", "fronde", "allume-feu"),
        1: ("clé", "bijou", "potion"),
        2: ("torche", "ration", "feu grégeois", "trousse de premier secours"),
        3: (
            "bouteille de vin",
            "targe",
            "rondache",
            "corde en chanvre",
            "lanterne sourde",
            "paillasse",
            "grappin",
            "outils d’artisan",
            "instrument de musique",
            "tenue polaire",
        ),
        4: ("écu", "tente", "toilette royale", "fontes"),
        5: (
            "pavois",
            "bois de chauffage",
            "coffre",
            "tonneau",
            "laboratoire d’alchimie",
            "selle de cheval",
        ),
    }
)
PRESET_CATEGORIES: Mapping[Category, tuple[str, ...]] = MappingProxyType(
    {
        "light_weapon": ("dague", "épée courte", "hache de lancer"),
        "one_handed_weapon": ("morgenstern", "épée longue"),
        "two_handed_weapon": ("bâton", "épée à deux mains"),
        "coins": ("pièces",),
        "ammo_container": ("carquois de flèches", "carquois de carreaux", "sac de billes"),
    }
)


def _presets() -> tuple[Mapping[str, object], ...]:
    items = [
        frozen_record(name=name, level=level, category="item")
        for level, names in PRESET_ITEMS.items()
        for name in names
    ]
    items += [
        frozen_record(name=name, level=CATEGORIES[category].level, category=category)
        for category, names in PRESET_CATEGORIES.items()
        for name in names
    ]
    return tuple(sorted(items, key=lambda item: str(item["name"])))


_ITEM_FIELDS = (
    Field(
        "name",
        "Objet",
        "text",
        default="objet",
        max_length=80,
        help="Un objet des règles (« pavois », « dague ») donne sa catégorie et son encombrement.",
    ),
    Field(
        "level",
        "Encombrement",
        "int",
        default=2,
        min=0,
        max=IMPOSSIBLE_LEVEL,
        choices=tuple(Choice(str(level.number), level.name) for level in LEVELS),
        # Weapons, armours, coins and ammunition have the level of their category.
        shown_if=("category", ("item",)),
    ),
    Field(
        "qty",
        "Quantité",
        "int",
        default=1,
        min=0,
        max=1_000_000,
        help="Pour les pièces : nombre de pièces.",
    ),
    Field(
        "category",
        "Catégorie",
        "choice",
        default="item",
        choices=tuple(Choice(key, info.label) for key, info in CATEGORIES.items()),
    ),
    Field(
        "size_steps",
        "Écart de taille",
        "int",
        default=0,
        min=-2,
        max=2,
        help=(
            "Catégories de taille de l’objet au-dessus (+) ou au-dessous (−) de celle du "
            "porteur : un niveau d’encombrement de plus ou de moins par catégorie."
        ),
    ),
)

CALCULATORS = (
    Calculator(
        id="encumbrance",
        title="Poids transportable",
        headline=("load_label",),
        description=(
            "Calcule les limites de quantité selon la Force et la charge finale d’un inventaire."
        ),
        inputs=(
            # Left out, an average Force; the form starts from the document's example (18).
            Field("strength", "Force", "int", default=10, initial=18, min=1, max=30),
            Field(
                "strength_modifier",
                "Modificateur de Force",
                "int",
                required=False,
                min=-5,
                max=10,
                help=(
                    "Facultatif : remplace le modificateur déduit de la Force ; "
                    "vide, celui de la Force."
                ),
            ),
            Field(
                "items",
                "Objets transportés",
                "list",
                # Left out, the field means nothing carried; the form starts from the
                # document's example.
                default=(),
                initial=(
                    frozen_record(
                        name="dague", level=2, qty=10, category="light_weapon", size_steps=0
                    ),
                    frozen_record(name="ration", level=2, qty=6, category="item", size_steps=0),
                    frozen_record(name="potion", level=1, qty=30, category="item", size_steps=0),
                ),
                fields=_ITEM_FIELDS,
                presets=_presets(),
                max_items=100,
            ),
            Field(
                "armor",
                "Armure équipée",
                "choice",
                # Left out, the field means no armour; the form starts from the document's
                # example, an armure d’écaille (medium).
                default="none",
                initial="medium",
                choices=(
                    Choice("none", "Aucune"),
                    Choice("light", "Armure légère"),
                    Choice("medium", "Armure intermédiaire"),
                    Choice("heavy", "Armure lourde"),
                ),
            ),
        ),
        outputs=(
            Output("load_label", "Charge finale"),
            Output("adjustment_text", "Ajustement des limites par la Force", sentence=True),
            Output("armor_load_label", "Charge due à l’armure"),
            Output(
                "groups",
                "Détail par limite",
                columns=(
                    ("names_text", "Objets"),
                    ("level_name", "Encombrement"),
                    ("quantity_text", "Quantité"),
                    ("limits_text", "Limites"),
                    ("load_label", "Charge"),
                ),
            ),
        ),
        handler=_handle,
    ),
)

# How a contradiction of the documents was settled, shown on the rule page (```note).
NOTES: Mapping[str, str] = MappingProxyType({"encumbrance_strength_example": STRENGTH_EXAMPLE_NOTE})
