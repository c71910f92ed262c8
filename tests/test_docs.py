"""README is the front door and docs/ holds the rest: the door stays short, and no link in
either leads nowhere.

A section moved from README into docs/ leaves links behind it; a renamed page or picture
breaks them silently on GitHub. These checks read the Markdown as text: every relative link
target (a page, a picture, a folder) must exist; web addresses and in-page anchors are not
followed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
# [text](target) and ![alt](target); a title after the target ("...") is not part of it.
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FRONT_DOOR_LINES = 200


def relative_links(page: Path) -> list[str]:
    """The link targets in ``page`` that point into the repository (no scheme, no anchor)."""
    text = page.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # code blocks hold examples, not links
    targets = [match.group(1) for match in LINK.finditer(text)]
    return [
        target.split("#", 1)[0]
        for target in targets
        if not re.match(r"[a-z][a-z0-9+.-]*:", target) and not target.startswith("#")
    ]


def test_the_readme_is_a_front_door() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= FRONT_DOOR_LINES, (
        f"README.md has {len(lines)} lines; keep it at {FRONT_DOOR_LINES} or fewer and move "
        "the details into a page under docs/ (README links to each)."
    )


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_points_at_a_file(page: Path) -> None:
    missing = [target for target in relative_links(page) if not (page.parent / target).exists()]
    assert missing == [], f"{page.relative_to(ROOT)} links to files that do not exist: {missing}"


def test_every_page_under_docs_is_reachable_from_the_readme() -> None:
    """A page nobody links to is a page nobody reads: each one is linked from README or
    from a page README links to (the rules' pages from their index)."""
    seen: set[Path] = set()
    todo = [ROOT / "README.md"]
    while todo:
        page = todo.pop()
        if page in seen or page.suffix != ".md" or not page.is_file():
            continue
        seen.add(page)
        todo.extend((page.parent / target).resolve() for target in relative_links(page))
    unlinked = [str(page.relative_to(ROOT)) for page in PAGES if page.resolve() not in seen]
    assert unlinked == [], f"no link from README reaches: {unlinked}"


def test_the_link_reader_sees_what_github_renders(tmp_path: Path) -> None:
    """The checks above are only as good as the reader: it must find links and pictures,
    and leave web addresses, anchors and code examples alone."""
    page = tmp_path / "page.md"
    page.write_text(
        'See [the Pi](docs/pi.md#wiring), ![tablet](docs/screenshots/tablet.png "Tablet"),\n'
        "[site](https://example.org/x.md), [here](#top), [mail](mailto:a@b.c).\n"
        "```\n[not a link](nowhere.md)\n```\n",
        encoding="utf-8",
    )
    assert relative_links(page) == ["docs/pi.md", "docs/screenshots/tablet.png"]
