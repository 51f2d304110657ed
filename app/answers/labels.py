"""The only words an extractive answer writes itself: fixed labels, in the question's
language (English, Hebrew or Japanese; English otherwise)."""

from __future__ import annotations

_LABELS: dict[str, dict[str, str]] = {
    "en": {
        "caveat": "(not verified against the sources)",
        "yes": "yes",
        "no": "no",
        "NO_CONTEXT": "The sources do not answer this question.",
        "UNSUPPORTED_CLAIM": "The answer could not be verified against the sources.",
        "unsure": "No passage states a short answer with confidence.",
    },
    "he": {
        "caveat": "(לא אומת מול המקורות)",
        "yes": "כן",
        "no": "לא",
        "NO_CONTEXT": "המקורות אינם עונים על השאלה הזו.",
        "UNSUPPORTED_CLAIM": "לא ניתן היה לאמת את התשובה מול המקורות.",
        "unsure": "אף קטע אינו מציין תשובה קצרה בביטחון.",
    },
    "ja": {
        "caveat": "（出典で未確認）",
        "yes": "はい",
        "no": "いいえ",
        "NO_CONTEXT": "資料にはこの質問への回答がありません。",
        "UNSUPPORTED_CLAIM": "回答を資料で確認できませんでした。",
        "unsure": "短い回答を確実に示す箇所はありません。",
    },
}


def label(language: str, key: str) -> str:
    return _LABELS.get(language, _LABELS["en"])[key]
