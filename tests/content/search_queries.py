"""What players type into the search box, and the page they want among the first three results.

Plain data, shared by the browser tests and by any benchmark of a search engine for this site.
Each entry is `(query, expected)`: `expected` is a site-relative URL path ("dnd5e/combat/"),
optionally with an anchor ("dnd5e/combat/#abri"). Without an anchor, any result on that page
counts; with one, the result must be that section or spell.
"""

from __future__ import annotations

QUERIES: list[tuple[str, str]] = [
    # Accents or none: the same results.
    ("épée", "ose/epees-intelligentes/"),
    ("epee", "ose/epees-intelligentes/"),
    ("désavantage", "dnd5e/tests-d20/#avantage-et-desavantage"),
    ("desavantage", "dnd5e/tests-d20/#avantage-et-desavantage"),
    ("avantage", "dnd5e/tests-d20/#avantage-et-desavantage"),
    ("points d'héroïsme", "pmt/epees-et-pmt/#points-d-heroisme"),
    ("points d'heroisme", "pmt/epees-et-pmt/#points-d-heroisme"),
    ("bonus de maîtrise", "dnd5e/maitrise/#bonus-de-maitrise"),
    ("bonus de maitrise", "dnd5e/maitrise/#bonus-de-maitrise"),
    ("santé mentale", "pmt/epees-et-pmt/#horreur-et-sante-mentale"),
    ("degre de difficulte", "dnd5e/tests-d20/"),
    ("attaque d'opportunite", "dnd5e/combat/#attaques-d-opportunite"),
    # Plurals and verb forms: French stemming.
    ("épées intelligentes", "ose/epees-intelligentes/"),
    ("jets de sauvegarde", "dnd5e/tests-d20/#jets-de-sauvegarde"),
    (
        "jet de sauvegarde contre la mort",
        "dnd5e/degats-et-soins/#jets-de-sauvegarde-contre-la-mort",
    ),
    ("coup critique", "dnd5e/degats-et-soins/#coups-critiques"),
    ("action bonus", "dnd5e/actions/#actions-bonus"),
    ("réaction", "dnd5e/actions/#reactions"),
    ("lancer deux d20", "dnd5e/tests-d20/#lancez-deux-d20"),
    ("stabiliser", "dnd5e/degats-et-soins/#stabiliser-un-personnage"),
    ("chute", "dnd5e/combat/#chuter-de-monture"),
    # The beginning of a word, as typed.
    ("inconsc", "dnd5e/degats-et-soins/"),
    ("encomb", "maison/poids-transportable/"),
    ("initia", "dnd5e/combat/#initiative"),
    ("boule de f", "magie/elementaire-feu/#boule-de-feu"),
    # Rule terms.
    ("encombrement", "maison/poids-transportable/"),
    ("poids transportable", "maison/poids-transportable/"),
    ("corruption", "pmt/epees-et-pmt/"),
    ("abri", "dnd5e/combat/#abri"),
    ("initiative", "dnd5e/combat/#initiative"),
    ("terrain difficile", "dnd5e/combat/#terrain-difficile"),
    ("points de vie temporaires", "dnd5e/degats-et-soins/#points-de-vie-temporaires"),
    ("classe d'armure", "dnd5e/tests-d20/#classe-d-armure"),
    ("se cacher", "dnd5e/exploration/#se-cacher"),
    ("allure de voyage", "dnd5e/exploration/#allure-de-voyage"),
    ("points de folie", "pmt/epees-et-pmt/#points-de-folie"),
    ("magicien noir", "pmt/epees-et-pmt/#magicien-noir"),
    ("test de contrôle", "ose/epees-intelligentes/#test-de-controle"),
    ("modificateur de caractéristique", "dnd5e/caracteristiques/"),
    ("inspiration héroïque", "dnd5e/tests-d20/#inspiration-heroique"),
    # Entry names, with or without accents.
    ("blast sonore", "magie/acoustique/#blast-sonore"),
    ("boule de feu", "magie/elementaire-feu/#boule-de-feu"),
    ("mur de feu", "magie/elementaire-feu/#mur-de-feu"),
    ("sommeil", "magie/emprise-mentale/#sommeil"),
    ("invisibilite", "magie/ombre-lumiere/#invisibilite"),
    ("ecouter a travers les murs", "magie/acoustique/#ecouter-a-travers-les-murs"),
    ("baguette de sorcier", "magie/enchantement/#baguette-de-sorcier"),
    ("chute lente", "magie/mouvement/#chute-lente"),
    # Spells that several colleges share: one of the copies.
    ("détection de la magie", "magie/connaissance/#detection-de-la-magie"),
    ("teleportation", "magie/mouvement/#teleportation"),
    ("lumière", "magie/ombre-lumiere/#lumiere"),
    ("pentacle", "magie/protection-alarme/#pentacle"),
    # A college by its name.
    ("acoustique", "magie/acoustique/"),
    # The glossary: a condition or term by its name, with or without accents.
    ("a terre", "dnd5e/glossaire/#a-terre"),
    ("à terre", "dnd5e/glossaire/#a-terre"),
    ("agrippe", "dnd5e/glossaire/#agrippe"),
    ("etourdi", "dnd5e/glossaire/#etourdi"),
    ("paralysé", "dnd5e/glossaire/#paralyse"),
    ("petrifie", "dnd5e/glossaire/#petrifie"),
    ("empoisonne", "dnd5e/glossaire/#empoisonne"),
    ("épuisement", "dnd5e/glossaire/#epuisement"),
    ("concentration", "dnd5e/glossaire/#concentration"),
    ("invisible", "dnd5e/glossaire/#invisible"),
    # A word of the same family as a spell's name: the condition, then the spell.
    ("invisible", "magie/ombre-lumiere/#invisibilite"),
    ("repos long", "dnd5e/glossaire/#repos-long"),
    ("repos court", "dnd5e/glossaire/#repos-court"),
    ("vision dans le noir", "dnd5e/glossaire/#vision-dans-le-noir"),
    ("influencer", "dnd5e/glossaire/#influencer"),
    # Abbreviations (search: synonyms: in mkdocs.yml), and what they stand for.
    ("CA", "dnd5e/tests-d20/#classe-d-armure"),
    ("ca", "dnd5e/tests-d20/#classe-d-armure"),
    ("PV", "dnd5e/degats-et-soins/#points-de-vie"),
    ("DD", "dnd5e/tests-d20/#degre-de-difficulte"),
    ("JS", "dnd5e/tests-d20/#jets-de-sauvegarde"),
    ("MJ", "maison/poids-transportable/#pour-le-mj"),
    ("maître du jeu", "maison/poids-transportable/#pour-le-mj"),
    ("PNJ", "dnd5e/interactions-sociales/"),
]

# Queries whose expected result must be the first one, not only among the first three.
FIRST: list[tuple[str, str]] = [
    ("a terre", "dnd5e/glossaire/#a-terre"),
    ("agrippe", "dnd5e/glossaire/#agrippe"),
    ("etourdi", "dnd5e/glossaire/#etourdi"),
    ("concentration", "dnd5e/glossaire/#concentration"),
    ("invisible", "dnd5e/glossaire/#invisible"),
    ("repos long", "dnd5e/glossaire/#repos-long"),
    ("CA", "dnd5e/tests-d20/#classe-d-armure"),
]

# Queries whose first three results must not hold these (a spell ranked over the rule).
NOT_IN_TOP_THREE: list[tuple[str, str]] = [
    ("repos long", "magie/metamagie/#vol-de-pouvoir"),
    ("CA", "dnd5e/combat/#cat-de-taille-de-la-creature"),
]
