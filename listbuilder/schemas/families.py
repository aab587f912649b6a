"""Which schemas read the files of each rules family: family -> (system schema, book schema)."""

from __future__ import annotations

from listbuilder.schemas.ancients_hex import AncientsHexBookSchema, AncientsHexSystemSchema
from listbuilder.schemas.armour_hex import ArmourHexBookSchema, ArmourHexSystemSchema
from listbuilder.schemas.opr import OprBookSchema, OprSystemSchema

FAMILY_SCHEMAS: dict[str, tuple[type, type]] = {
    "opr": (OprSystemSchema, OprBookSchema),
    "ancients-hex": (AncientsHexSystemSchema, AncientsHexBookSchema),
    "armour-hex": (ArmourHexSystemSchema, ArmourHexBookSchema),
}
