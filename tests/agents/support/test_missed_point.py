"""A customer's reply saying the AI's answer missed the point (issue 25, part 3).

Given a customer's reply, when it says the answer was about something else, then it counts as
"not solved"; a reply about another problem, or one that only shares the words, does not.
"""

from __future__ import annotations

import pytest

from agents.support.missed_point import missed_the_point

MISSED = [
    # English, as customers write it
    "That's not what I asked.",
    "that is not what i was asking about",
    "No, that’s not what I meant",
    "You didn't answer my question",
    "you did not understand my question at all",
    "U didnt read my message",
    "This doesn't answer my question. When does it ship?",
    "You missed the point completely",
    "I didn't ask about delivery times",
    "Not my question, sorry",
    "That's irrelevant to what I wrote",
    "Please read my question again",
    # Japanese
    "そういうことではなく、返品の送料が知りたいです",
    "そういう事じゃなくて",
    "そうじゃなくて、配送日の変更をお願いしたいんです",
    "いいえ、そうではなく注文番号を変えたいです",
    "質問の答えになっていません",
    "回答になってないです。",
    "質問に答えていませんよね",
    "聞いたことと違う答えです",
    "それは聞いていません",
    "的外れな回答でした",
    "話が噛み合っていません",
    "そういう意味ではありません",
    "質問をよく読んでください",
]

SOMETHING_ELSE = [
    # another problem, not the answer
    "That's not what I ordered",
    "this is not what I ordered, the colour is wrong",
    "That's not what I asked for, I wanted the blue one",
    "Not what I expected from this product",
    "you didn't deliver my package",
    "注文したものと違います",
    "届いた商品が思っていたのと違う",
    # the same words, another meaning
    "I haven't heard from the carrier yet",
    "Did you get my question?",
    "Thanks, that answers my question",
    "まだ何も聞いていません",
    "配送についてはまだ聞いていません",
    "そういうことなら、キャンセルでお願いします",
    "そうですね、それでお願いします",
    "そうではなくて良かったです",
    "回答ありがとうございます、よく分かりました",
    "",
]


@pytest.mark.parametrize("text", MISSED)
def test_a_reply_saying_the_answer_missed_the_point_is_read_so(text: str) -> None:
    assert missed_the_point(text)


@pytest.mark.parametrize("text", SOMETHING_ELSE)
def test_a_reply_about_something_else_is_not(text: str) -> None:
    assert not missed_the_point(text)


def test_full_width_and_curly_quotes_read_as_written() -> None:
    assert missed_the_point("ＹＯＵ ＤＩＤＮ’Ｔ ＡＮＳＷＥＲ ＭＹ ＱＵＥＳＴＩＯＮ")
