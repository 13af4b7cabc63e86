"""Migration operations that Tortoise gets wrong on SQLite.

Tortoise changes a SQLite table it cannot ALTER (a dropped column, an altered field) by building
a copy and dropping the original. The migration runs with foreign keys on and inside a
transaction (where SQLite ignores `PRAGMA foreign_keys`), so dropping the original cascades:
every row of every table that references it is deleted. These operations change the table in
place instead; use them on any table other tables point to (docs/desenvolvimento.md,
"Migrações")."""

from __future__ import annotations

from typing import Any

from tortoise.migrations import operations as ops


class DropColumn(ops.RemoveField):
    """RemoveField that drops the column in place on SQLite (3.35+: `ALTER TABLE ... DROP
    COLUMN`, for a column that is not a key, indexed or unique), as PostgreSQL always does."""

    async def database_forward(self, app_label: str, old_state: Any, new_state: Any, state_editor: Any = None) -> None:
        if state_editor is None or state_editor.DIALECT != "sqlite":
            await super().database_forward(app_label, old_state, new_state, state_editor)
            return
        model = old_state.apps.get_model(f"{app_label}.{self.model_name}")
        field = model._meta.fields_map[self.name]
        column = field.source_field or field.model_field_name
        await state_editor._run_sql(f'ALTER TABLE "{model._meta.db_table}" DROP COLUMN "{column}"')
