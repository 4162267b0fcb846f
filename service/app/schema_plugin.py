"""Struct schemas that describe themselves: the struct's docstring and its tag field.

Litestar 2.25 builds a Struct's schema from its fields (a field's ``msgspec.Meta`` description
becomes the property's description) but drops the class docstring, which msgspec's own JSON
schema uses as the description, and adds a tagged union's tag field (``type``) with no
description at all. This plugin takes Litestar's schema and fills in just those two.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING

import msgspec

# Litestar exposes no public hook on its Struct schemas; subclassing its own plugin keeps
# every other part of the schema exactly what Litestar generates.
from litestar._openapi.schema_generation.plugins.struct import StructSchemaPlugin
from litestar.openapi.spec import Schema

if TYPE_CHECKING:
    from litestar._openapi.schema_generation import SchemaCreator
    from litestar.typing import FieldDefinition

__all__ = ["DescribedStructSchemaPlugin"]


class DescribedStructSchemaPlugin(StructSchemaPlugin):
    """Litestar's Struct schema plus the docstring and a described tag field."""

    def to_openapi_schema(
        self, field_definition: FieldDefinition, schema_creator: SchemaCreator
    ) -> Schema:
        schema = super().to_openapi_schema(field_definition, schema_creator)
        struct = field_definition.type_
        # Only the class's own docstring: msgspec.Struct's would otherwise be inherited.
        doc = struct.__dict__.get("__doc__")
        if doc and schema.description is None:
            schema.description = inspect.cleandoc(doc)
        info = msgspec.inspect.type_info(struct)
        assert isinstance(info, msgspec.inspect.StructType)
        if info.tag_field and schema.properties:
            tag = schema.properties[info.tag_field]
            if isinstance(tag, Schema) and tag.description is None:
                tag.description = (
                    f'Always "{info.tag}": the tag that says this object is a {struct.__name__}.'
                )
        return schema
