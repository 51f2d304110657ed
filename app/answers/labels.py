"""The only words an extractive answer writes itself: fixed labels, in the question's
language (English, Hebrew or Japanese; English otherwise)."""

from __future__ import annotations

from app.answers.question import AnswerType

_LABELS: dict[str, dict[str, str]] = {
    "en": {
        "caveat": "(not verified against the sources)",
        "yes": "yes",
        "no": "no",
        "NO_CONTEXT": "The sources do not answer this question.",
        "UNSUPPORTED_CLAIM": "The answer could not be verified against the sources.",
        "gap": "No passage gives {what}.",
        "gap_side": "No passage gives a value for {side}.",
        "PERSON": "the person asked about",
        "DATE": "the date asked about",
        "PLACE": "the place asked about",
        "NUMBER": "the number asked about",
        "ORGANISATION": "the organisation asked about",
        "NATIONALITY": "the nationality asked about",
        "WORK": "the work asked about",
        "EVENT": "the event asked about",
        "ENTITY": "the name asked about",
        "YES_NO": "a yes or no",
        "ANY": "an answer",
    },
    "he": {
        "caveat": "(לא אומת מול המקורות)",
        "yes": "כן",
        "no": "לא",
        "NO_CONTEXT": "המקורות אינם עונים על השאלה הזו.",
        "UNSUPPORTED_CLAIM": "לא ניתן היה לאמת את התשובה מול המקורות.",
        "gap": "אף קטע אינו מציין {what}.",
        "gap_side": "אף קטע אינו מציין ערך עבור {side}.",
        "PERSON": "את האדם שנשאל עליו",
        "DATE": "את התאריך שנשאל עליו",
        "PLACE": "את המקום שנשאל עליו",
        "NUMBER": "את המספר שנשאל עליו",
        "ORGANISATION": "את הארגון שנשאל עליו",
        "NATIONALITY": "את הלאום שנשאל עליו",
        "WORK": "את היצירה שנשאלה עליה",
        "EVENT": "את האירוע שנשאל עליו",
        "ENTITY": "את השם שנשאל עליו",
        "YES_NO": "כן או לא",
        "ANY": "תשובה",
    },
    "ja": {
        "caveat": "（出典で未確認）",
        "yes": "はい",
        "no": "いいえ",
        "NO_CONTEXT": "資料にはこの質問への回答がありません。",
        "UNSUPPORTED_CLAIM": "回答を資料で確認できませんでした。",
        "gap": "{what}を示す箇所はありません。",
        "gap_side": "{side}の値を示す箇所はありません。",
        "PERSON": "該当する人物",
        "DATE": "該当する日付",
        "PLACE": "該当する場所",
        "NUMBER": "該当する数値",
        "ORGANISATION": "該当する組織",
        "NATIONALITY": "該当する国籍",
        "WORK": "該当する作品",
        "EVENT": "該当する出来事",
        "ENTITY": "該当する名称",
        "YES_NO": "はい・いいえの判断",
        "ANY": "回答",
    },
}


def label(language: str, key: str) -> str:
    return _LABELS.get(language, _LABELS["en"])[key]


def gap(language: str, answer_type: AnswerType) -> str:
    return label(language, "gap").format(what=label(language, answer_type.value))


def side_gap(language: str, side: str) -> str:
    return label(language, "gap_side").format(side=side)
