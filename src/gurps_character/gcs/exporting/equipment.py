"""The equipment of an exported character in GCS's nodes: each item with its cost, weight and
notes (its location among them), and a stack (``Arrow ×20``, as the importer names one) written
back as one item's cost and weight with a quantity.
"""

from __future__ import annotations

import re
from typing import Final

from .sheet import (
    LIMIT,
    SheetBase,
    Stack,
    fxp_text,
    plain,
)

__all__ = ["EquipmentPart"]


_QUANTITY_NAME: Final = re.compile(r"(.*\S) ×([0-9]+(?:\.[0-9]{1,4})?)")
"""An item's name as the importer names a stack (``Arrow ×20``: the name, a space, × and the
quantity as GCS shows it)."""


class EquipmentPart(SheetBase):
    """Equipment, and the stacks its names end with."""

    def _equipment(self) -> None:
        new_id = self.ids.new
        nodes = self.equipment
        item_by_name = self.item_by_name
        for index, item in enumerate(self.doc.get("equipment", ())):
            notes = item.get("notes")  # text, or None (a valid item's notes are text)
            location = item.get("location")
            if location:
                notes = f"{notes}\nLocation: {location}" if notes else f"Location: {location}"
            # cost_and_weight's bounds, the pointers made only for a note
            cost = item.get("cost", 0)
            if (type(cost) is not int and type(cost) is not float) or not -LIMIT <= cost <= LIMIT:
                cost = self.bounded(cost, f"/equipment/{index}/cost", "Cost")
            weight = item.get("weight", 0)
            if (type(weight) is not int and type(weight) is not float) or not -LIMIT <= weight <= LIMIT:
                weight = self.bounded(weight, f"/equipment/{index}/weight", "Weight")
            name = item["name"]
            if type(name) is not str or name.strip() != name:
                name = self.name(name, f"/equipment/{index}/name", "item")
            pounds = weight * 2
            if "×" in name:  # only a name with a '×' can end as a stack does
                self.new_item(
                    name, cost, weight, notes or "", self._stack(name, cost, weight, f"/equipment/{index}")
                )
            elif notes and cost and pounds:  # the usual item: new_item's node, made here at once
                if not -1000 < pounds < 1000:
                    weight_text = fxp_text(pounds) + " lb"
                elif type(pounds) is int:  # fxp_text's two first cases, inline
                    weight_text = f"{pounds} lb"
                elif pounds.is_integer():
                    weight_text = f"{int(pounds)} lb"
                else:
                    weight_text = fxp_text(pounds) + " lb"
                value: int | float
                if type(cost) is int:
                    value = cost
                    base_value = str(cost) if -1000 < cost < 1000 else fxp_text(cost).replace(",", "")
                else:
                    value = plain(cost)
                    base_value = fxp_text(cost).replace(",", "")
                node = {
                    "id": new_id("equipment"),
                    "description": name,
                    "local_notes": notes,
                    "base_value": base_value,
                    "base_weight": weight_text,
                    "weapons": [],
                    "features": [],
                    "quantity": 1,
                    "equipped": True,
                    "calc": {
                        "value": value,
                        "extended_value": value,
                        "weight": weight_text,
                        "extended_weight": weight_text,
                    },
                }
                nodes.append(node)
                if name not in item_by_name:
                    item_by_name[name] = node
            else:
                self.new_item(name, cost, weight, notes or "")

    def _stack(self, name: str, cost: float, weight: float, pointer: str) -> Stack | None:
        """The stack an item's name ends with (``Arrow ×20``, as :func:`~.import_gcs` names a
        stack of 20): one item's cost and weight (in pounds) and the quantity when they give the
        document's totals in GCS's four decimals; None for a name without one."""
        found = _QUANTITY_NAME.fullmatch(name)
        if found is None:
            return None
        description, count = found.group(1), float(found.group(2))
        quantity: int | float = int(count) if count.is_integer() else count
        if 0 < count <= LIMIT and _decimal(count) == found.group(2):
            unit_cost, unit_pounds = round(cost / count, 4), round(weight * 2 / count, 4)
            exact = round(unit_cost * count, 4) == round(cost, 4) and round(unit_pounds * count, 4) == round(
                weight * 2, 4
            )
            # one of a name that ends as a stack itself is named with ' ×1' too
            if exact and (quantity != 1 or _QUANTITY_NAME.fullmatch(description)):
                return Stack(description, quantity, unit_cost, unit_pounds)
        self.note(
            f"{pointer}/name",
            "differs",
            f"'{name[:60]}' ends as the importer names a stack of items; the file holds it as one item "
            "of that name, which an import of the file names with ' ×1' added.",
        )
        return None


def _decimal(value: float) -> str:
    """A quantity as GCS shows it, and the importer names a stack with it (``20``, ``0.5``)."""
    return f"{value:.4f}".rstrip("0").rstrip(".")
