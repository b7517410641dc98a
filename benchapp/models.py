from __future__ import annotations

from django.db import models


class BenchWrite(models.Model):
    """Rows written by the trivial benchmark endpoint (the floor of the stack)."""

    note = models.CharField(max_length=40)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"bench write {self.pk}"
