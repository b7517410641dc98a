"""The moderation services took the moderator as ``moderator=`` before the roles came; they
take ``actor=`` now (the name every service uses for who acts). Callers of before keep
working: ``moderator=`` is read as ``actor=``."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])


def actor_keyword(func: F) -> F:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if "moderator" in kwargs:
            if "actor" in kwargs:
                raise TypeError(f"{func.__name__}() takes actor= or moderator=, not both")
            kwargs["actor"] = kwargs.pop("moderator")
        return func(*args, **kwargs)

    return cast(F, wrapper)
