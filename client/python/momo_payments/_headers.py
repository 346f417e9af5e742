"""Response headers as a read-only, case-insensitive mapping."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping


class Headers(Mapping[str, str]):
    """The headers of an answer; ``headers["x-request-id"]`` and ``headers["X-Request-Id"]``
    are the same. A repeated header's values are joined with ``, `` as HTTP allows."""

    def __init__(self, items: Iterable[tuple[str, str]] = ()) -> None:
        self._items: dict[str, tuple[str, str]] = {}
        for name, value in items:
            key = name.lower()
            previous = self._items.get(key)
            self._items[key] = (name, value if previous is None else f"{previous[1]}, {value}")

    def __getitem__(self, name: str) -> str:
        return self._items[name.lower()][1]

    def __iter__(self) -> Iterator[str]:
        return (name for name, _ in self._items.values())

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._items

    def __repr__(self) -> str:
        return f"Headers({dict(self._items.values())!r})"
