"""English cues for the payment agent: refunds, payment status, coupons and compensation."""

from __future__ import annotations

from agents.offline.understanding.lexicon import Cue, ask, hint, request

PAYMENT_CUES: tuple[Cue, ...] = (
    request(
        r"\brefund (?:me|it|this|that|them|my|the|please)\b"
        r"|^\W*refund\b(?! (?:status|policy|process|time))"
        r"|\brefund (?:order )?(?:#\s*)?ord[\s\-_#]*\d"
        r"|\b(?:want|need|like|request|demand|give me|issue|expect|requesting|process) (?:a |my "
        r"|the |full |partial |an? (?:full|partial) )?refund\b|\bplease refund\b|\bmoney back\b"
        r"|\breimburse\w*\b|\b(?:want|like|need) to (?:return|send back)\b",
        "process_refund",
    ),
    ask(r"\b(?:can|could|may) i (?:get|have|receive) (?:a |my )?refund\b", "process_refund"),
    hint(
        r"\brefund\w*\b|\breturn (?:it|this|the|my|them|an? \w+|these)\b|\bsend (?:it|this) back\b",
        "process_refund",
    ),
    hint(
        r"\b(?:broken|damaged|defective|faulty|cracked|torn|scratched|smashed|dented|stained)\b"
        r"|\b(?:doesn't|does not|didn't|won't) work\b|\bnot working\b"
        r"|\bwrong (?:item|size|colou?r|product|thing)s? (?:was |were )?(?:sent|delivered|arrived"
        r"|came)\b|\b(?:sent|received|got) (?:me )?(?:the |a )?wrong\b",
        "process_refund",
        1.0,
    ),
    ask(
        r"\b(?:refund|payment|money|charge|reimbursement|transfer)s?\b.{0,30}\b(?:gone through"
        r"|go through|went through|processed|yet|status|pending|come back|comes back|coming back"
        r"|back to my|arrive|been (?:issued|sent|processed|made|completed|paid)|show up|shows up"
        r"|reflected|completed|complete|confirmed|received|get back|receive)\b",
        "check_payment_status",
    ),
    ask(
        r"\bwhen\b.{0,30}\b(?:refund|money|payment|reimbursement)\b"
        r"|\bwhere(?:'s|s| is) (?:my |the )?(?:refund|money|payment)\b"
        r"|\bstatus of (?:my |the )?(?:refund|payment)\b|\bhow long\b.{0,30}\brefund\b"
        r"|\b(?:still )?no (?:refund|money)\b"
        r"|\b(?:haven't|have not|didn't|did not|never|not) (?:yet )?(?:got|gotten|received"
        r"|seen) (?:my |the |a |any )?(?:refund|money)\b|\b(?:refund|payment) status\b"
        r"|\b(?:two|2|double|duplicate|multiple) (?:payments|charges|transactions)\b"
        r"|\bunknown (?:charge|payment|transaction)\b|\bcharge (?:i|that i) don't recogni[sz]e\b",
        "check_payment_status",
    ),
    ask(
        r"\b(?:charged|billed|debited|taken|deducted)\b.{0,20}\b(?:twice|double|two times|2 times"
        r"|again|more than|too much|wrong|incorrect|extra)\b"
        r"|\bdouble[- ]?(?:charged|billed|charge|payment)\b|\bduplicate (?:charge|payment)\b"
        r"|\bovercharged\b",
        "check_payment_status",
    ),
    ask(
        r"\b(?:charged|billed|paid)\b.{0,40}\b(?:but|yet|although|though)\b"
        r"|\b(?:payment|card|transaction)\b.{0,20}\b(?:failed|declined|rejected|error"
        r"|didn't go through|did not go through|was refused)\b"
        r"|\b(?:order|it) (?:shows|says|is showing|showing|marked)(?: as)? failed\b",
        "check_payment_status",
    ),
    ask(
        r"\b(?:wrong|incorrect|different|higher) (?:amount|price|total|charge)\b"
        r"|\b(?:amount|price|total|charge|bill|invoice)\b.{0,20}\b(?:wrong|incorrect|different"
        r"|doesn't match|does not match|too high)\b|\bpayment status\b",
        "check_payment_status",
    ),
    hint(
        r"\b(?:charged?|billed?|billing|payment|paid|card|transaction)\b",
        "check_payment_status",
        1.0,
    ),
    request(
        r"\bcompensat\w*\b|\bgoodwill\b|\bmake (?:it|this) up to me\b|\bmake up for\b"
        r"|\bfor (?:the|my) (?:trouble|inconvenience)\b"
        r"|\bpromised (?:me )?(?:a |some |an? )?(?:coupon|discount|voucher|credit)\b"
        r"|\b(?:deserve|entitled to|expect) (?:a |some |any )?(?:discount|coupon|voucher|refund"
        r"|compensation|something)\b",
        "apply_coupon",
    ),
    request(
        r"\b(?:give|send|offer|get) (?:me |us )?(?:a |some |any )?(?:coupon|voucher|discount)\b",
        "apply_coupon",
        3.0,
    ),
    ask(
        r"\b(?:apply|use|add|redeem|enter)\b(?: \w+){0,3} (?:coupon|promo|voucher|discount|code)\b"
        r"|\b(?:coupon|promo|voucher|discount) code\b.{0,30}\b(?:apply|work|accept|didn't|not"
        r"|doesn't|failed)\b",
        "apply_coupon",
    ),
    hint(r"\b(?:coupon|voucher|promo|discount)s?\b", "apply_coupon", 1.0),
)
