"""Entity resolution within a document: one entity per normalised name and compatible type.

- names are normalised: NFKC, case, whitespace, possessives and leading articles;
- aliases the text declares are merged: "International Business Machines (IBM)";
- a surname alone joins the one full name in the document that ends with it;
- a name of two or more words is one entity whatever type the tagger gave each mention
  (small NER models label "Acme Robotics" ORG in one sentence and PERSON in the next):
  the majority type wins. One-word names stay split by type ("Jordan" the person and
  the country).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field

from ingest.mentions import Mention

_ARTICLE = re.compile(r"^(the|a|an)\s+")
_POSSESSIVE = re.compile(r"['’]s?$")
_EDGE_PUNCT = re.compile(r"^[\W_]+|[\W_]+$")
_DECLARED_ALIAS = re.compile(r"^\s*\(\s*([^()]{1,60}?)\s*\)")
_MARKUP = re.compile(r"^[#>*\-•\s]+")
_ACRONYM = re.compile(r"^[A-Z][A-Z0-9&.-]{1,11}$")


@dataclass
class ResolvedEntity:
    key: str
    group: str
    names: Counter[str] = field(default_factory=Counter)

    @property
    def name(self) -> str:
        """The most frequent surface form, the longer one on ties."""
        return max(self.names.items(), key=lambda item: (item[1], len(item[0])))[0]

    @property
    def aliases(self) -> list[str]:
        return sorted(n for n in self.names if n != self.name)


def display_name(surface: str) -> str:
    """The surface form without Markdown or list markers the NER span swept in."""
    return _MARKUP.sub("", " ".join(surface.split())) or surface.strip()


def without_possessive(name: str) -> str:
    """ "Katy Perry's" → "Katy Perry"; "the Jets'" → "the Jets"."""
    return _POSSESSIVE.sub("", name)


def normalise(name: str) -> str:
    text = " ".join(unicodedata.normalize("NFKC", name).casefold().split())
    text = without_possessive(_EDGE_PUNCT.sub("", text))
    return _EDGE_PUNCT.sub("", _ARTICLE.sub("", text))


def resolve(text: str, mentions: list[Mention]) -> tuple[list[ResolvedEntity], list[int]]:
    """Entities of a document, and for each mention the index of its entity."""
    keys = [normalise(m.text) for m in mentions]
    canonical = _declared_aliases(text, mentions, keys) | _surnames(mentions, keys)
    resolved_keys = [canonical.get(key, key) for key in keys]
    majority = _majority_groups(mentions, resolved_keys)
    entities: dict[tuple[str, str], int] = {}
    resolved: list[ResolvedEntity] = []
    owner: list[int] = []
    for mention, key in zip(mentions, resolved_keys, strict=True):
        ident = (key, majority.get(key, mention.group))
        if ident not in entities:
            entities[ident] = len(resolved)
            resolved.append(ResolvedEntity(*ident))
        resolved[entities[ident]].names[display_name(mention.text)] += 1
        owner.append(entities[ident])
    return resolved, owner


GROUP_PRIORITY = ("ORG", "PERSON", "PLACE", "WORK", "PRODUCT", "EVENT", "GROUP", "LAW")


def is_multiword(key: str) -> bool:
    return len(key.split()) > 1


def _majority_groups(mentions: list[Mention], keys: list[str]) -> dict[str, str]:
    votes: dict[str, Counter[str]] = {}
    for mention, key in zip(mentions, keys, strict=True):
        if is_multiword(key):
            votes.setdefault(key, Counter())[mention.group] += 1
    return {key: max(count, key=lambda g: (count[g], -_rank(g))) for key, count in votes.items()}


def _rank(group: str) -> int:
    return GROUP_PRIORITY.index(group) if group in GROUP_PRIORITY else len(GROUP_PRIORITY)


def _declared_aliases(text: str, mentions: list[Mention], keys: list[str]) -> dict[str, str]:
    known = set(keys)
    aliases: dict[str, str] = {}
    for mention, key in zip(mentions, keys, strict=True):
        match = _DECLARED_ALIAS.match(text[mention.end : mention.end + 80])
        if match is None:
            continue
        alias = match.group(1)
        alias_key = normalise(alias)
        if alias_key and alias_key != key and (_ACRONYM.match(alias) or alias_key in known):
            aliases[alias_key] = key
    return aliases


def _surnames(mentions: list[Mention], keys: list[str]) -> dict[str, str]:
    full_names = {
        k for m, k in zip(mentions, keys, strict=True) if m.group == "PERSON" and len(k.split()) > 1
    }
    by_surname: dict[str, set[str]] = {}
    for full in full_names:
        by_surname.setdefault(full.split()[-1], set()).add(full)
    return {
        surname: next(iter(fulls))
        for surname, fulls in by_surname.items()
        if len(fulls) == 1 and surname in keys
    }
