"""English cues for the FAQ agent: general topics, how-to look-ups and asking for a person."""

from __future__ import annotations

from agents.offline.understanding.lexicon import Cue, hint, request, topic

FAQ_CUES: tuple[Cue, ...] = (
    request(
        r"\b(?:talk|speak|chat|connect|transfer|put)\b(?: \w+){0,3} (?:to|with|through to) (?:a "
        r"|an |the |some |your )?(?:real |actual |live |human |other )?(?:customer service "
        r"|customer support |support |service )?(?:person|human|someone|somebody|agent"
        r"|representative|rep|operator|manager|supervisor|staff|employee|people)\b"
        r"|\b(?:real|actual|live) (?:person|human|agent|representative|people)\b"
        r"|\bhuman (?:agent|being|support|representative)\b"
        r"|\bnot (?:a |an |the )?(?:bot|robot|ai|machine)\b|\b(?:call|phone) me\b",
        "contact_human",
        4.0,
    ),
    hint(r"\b(?:representative|operator|manager|supervisor)\b", "contact_human"),
    request(
        r"\b(?:get|give|want|need|find) (?:me )?(?:a |an |the |your )?(?:real |live )?(?:human"
        r"|person|agent|representative|manager|supervisor|staff member)\b",
        "contact_human",
        3.5,
    ),
    hint(
        r"\b(?:phone|telephone) (?:number|support|line)\b|\bcall (?:you|someone|your|support)\b",
        "contact_human",
        2.0,
    ),
    topic(
        r"\b(?:return|returns|refund|exchange|cancellation|shipping|delivery|privacy) policy\b"
        r"|\bpolicy\b|\bterms (?:and|&) conditions\b"
        r"|\bhow (?:long|many days) (?:do i have|have i got|can i wait)\b|\breturn window\b"
        r"|\b(?:can|may|could) i (?:still )?(?:return|exchange)\b|\bwithin (?:how many|\d+) days\b",
        "answer_general_question",
    ),
    topic(
        r"\b(?:do|does|can|will) (?:you|your (?:shop|store|company)) (?:ship|deliver"
        r"|send)\b(?! (?:it|them|this|that|my|me)\b)"
        r"|\bship(?:ping)? (?:to|overseas|internationally|abroad)\b(?! (?:my|me)\b)"
        r"|\bhow (?:many|much) (?:days|time)\b.{0,30}\b(?:ship|deliver|delivery|arrive|take)\w*\b"
        r"|\b(?:shipping|delivery) (?:cost|costs|fee|fees|charge|charges|time|times|rates?"
        r"|options?)\b|\bfree shipping\b"
        r"|\b(?:which|what) (?:carrier|courier|delivery company|shipping company)\b",
        "answer_general_question",
    ),
    # General questions about how the shop works, whatever the topic.
    topic(
        r"\bhow long (?:do|does|will|would) (?:\w+ ){0,3}(?:usually |normally |typically )?take\b"
        r"|\bwhat happens (?:if|when)\b|\bwhat if\b"
        r"|\b(?:cancellation|restocking|return|handling|cod|service) (?:fee|fees|charge|charges)\b"
        r"|\b(?:is|are) (?:there|the prices?) (?:a |any )?(?:fee|fees|tax|taxes|extra charge)"
        r"|\btax(?:es)? included\b|\binclude (?:tax|taxes|shipping)\b",
        "answer_general_question",
        2.5,
    ),
    topic(
        r"\bgift[- ]?wrap\w*\b|\bgift (?:box|bag|message|receipt|option)s?\b|\bwrapping\b"
        r"|\bmessage card\b",
        "answer_general_question",
    ),
    topic(
        r"\bexchange\w*\b|\bswap (?:it|for|the size)\b"
        r"|\b(?:different|another|bigger|smaller) size\b",
        "answer_general_question",
        2.5,
    ),
    topic(
        r"\b(?:business|opening|office|support) hours\b|\b(?:your|a) (?:store|shop) (?:in|near)\b"
        r"|\bwarrant(?:y|ies)\b|\bguarantee\b|\bin stock\b|\brestock\w*\b|\bsize (?:chart|guide)\b"
        r"|\bpre-?order\w*\b",
        "answer_general_question",
        2.5,
    ),
    topic(
        r"\bpayment (?:methods?|options?|types?)\b|\b(?:methods?|ways?) (?:of|to) pay\b"
        r"|\b(?:do|does|can) (?:you|i) (?:accept|take|pay (?:by|with|using|via|in))\b"
        r"|\bpay (?:by|with|using|via) (?:paypal|cash|bank|konbini|convenience|credit|debit|card"
        r"|apple|google|installments?)\b"
        r"|\b(?:cash on delivery|cod|convenience store|konbini|paypal|paypay|bank transfer"
        r"|installments?|apple pay|google pay)\b",
        "search_faq",
    ),
    topic(
        r"\bpassword\b|\blog ?in\b|\blog(?:ging)? in\b|\bsign(?:ing)? (?:in|up)\b"
        r"|\baccount (?:settings|details|info|information|page|name)\b"
        r"|\b(?:create|make|open|delete|close|deactivate|register|change|update|access|into"
        r"|out of) (?:an |my |the )?account\b"
        r"|\baccount (?:is |was |got )?(?:locked|suspended|hacked)\b|\bon my account\b"
        r"|\b(?:change|update|reset|forgot|forget|lost)\b(?: \w+){0,2} (?:email|e-mail|password"
        r"|username|user name|phone number)\b|\be-?mail address\b|\bnewsletter\b|\bunsubscrib\w*\b"
        r"|\bregist(?:er|ration)\b|\bprofile\b|\baddress\b",
        "search_faq",
    ),
    topic(
        r"\b(?:coupons?|vouchers?|promo codes?|discount codes?|points?)\b.{0,30}\b(?:combine"
        r"|combined|stack|together|at once|same order|one order|per order|expire|expiry|expiration"
        r"|valid)\b"
        r"|\b(?:two|2|multiple|several|more than one) (?:coupons|vouchers|codes|discounts)\b"
        r"|\bhow (?:do|can|to) (?:i )?(?:use|apply|redeem|get|find|enter) (?:a |my "
        r"|the )?(?:coupon|voucher|promo|discount|code|points)\b|\bloyalty\b|\breward points?\b",
        "search_faq",
    ),
    topic(r"\breceipts?\b|\binvoices?\b", "search_faq", 2.5),
    topic(
        r"\bhow (?:do|can|should|would) i\b|\bhow to\b"
        r"|\bwhere (?:can|do) i (?:find|see|check|change|get|download)\b"
        r"|\bwhich\b.{0,20}\b(?:methods|options|ways)\b",
        "search_faq",
        1.0,
    ),
)
