"""English intent cues. Written against lower-cased text whose key words were already
typo-corrected (``typos.correct_typos``), so a pattern names each word once."""

from __future__ import annotations

from agents.understanding.lexicon import Cue, ask, hint, request, topic, veto

THING = (
    r"(?:order|orders|package|packages|parcel|parcels|stuff|delivery|shipment|item|items|box"
    r"|things|purchase|goods|products?)"
)
MONTH = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november"
    r"|december|last month|this month|last week|this year|last year)"
)
NOT_ARRIVED = (
    r"\b(?:hasn't|has not|haven't|have not|didn't|did not|never|not yet|still not|isn't|is not"
    r"|aren't|not) (?:yet )?(?:arrived?|come|came|received?|got(?:ten)?|been delivered"
    r"|delivered|shown up|showed up|show up|here|turned up)\b|\bstill waiting\b"
)

ORDER_CUES: tuple[Cue, ...] = (
    ask(
        r"\b(?:order|purchase|buying|shopping) history\b|\b(?:past|previous|recent|old|all(?: of)?"
        r"(?: my)?) (?:orders|purchases)\b|\blist (?:of )?(?:my |all )?(?:orders|purchases)\b"
        r"|\borders (?:that )?i (?:placed|made|ordered)\b|\b(?:show|see|view|find|check) (?:me )?"
        r"(?:my |the |all )?(?:orders|purchases)\b",
        "search_orders",
    ),
    ask(
        rf"\bmy orders\b|\bwhat (?:did|have) i (?:order|buy|bought|purchase)(?:ed)? (?:in|last|this|during|from) {MONTH}",
        "search_orders",
        2.0,
    ),
    ask(r"\b(?:cancell?ed|shipped|pending|delivered|unshipped) orders\b", "search_orders", 2.5),
    hint(
        rf"\b(?:orders|purchases|ordered|bought|purchased) (?:\w+ ){{0,3}}(?:(?:in|during|from|since|over) )?{MONTH}",
        "search_orders",
        1.0,
    ),
    ask(
        r"\b(?:everything|all(?: the \w+)?|all of what) i(?:'ve| have)? (?:ordered|bought|purchased)\b"
        r"|\b(?:what|which) orders\b|\borders do i have\b",
        "search_orders",
    ),
    ask(
        r"\border (?:details|contents|summary|info|information)\b|\bdetails (?:of|for|about|on) "
        r"(?:my |the |this |that )?order\b|\bwhat(?:'s| is| was)? (?:exactly )?(?:was |is )?in "
        rf"(?:my |the |this |that )?(?:order|package|parcel|box)\b|\bwhat (?:did|have) i "
        rf"(?:order|buy|bought|purchase)(?:ed)?\b(?! (?:in|last|this|during|from) {MONTH})",
        "get_order_details",
    ),
    ask(
        r"\bhow much (?:did i (?:pay|spend)|was (?:my |the |this )?order)\b",
        "get_order_details",
        2.5,
    ),
    hint(
        r"\bconfirmation (?:email|e-mail|mail|message)\b|\bwhich items\b|\bitems in (?:my |the )?order\b",
        "get_order_details",
    ),
    request(r"\bcancel(?!l?ed\b)\w*\b", "cancel_order"),
    hint(r"\bcancell?ed\b", "cancel_order", 0.5),
    request(
        r"\b(?:don't|do not|no longer) (?:want|need) (?:it|this|that|the order|the item|them)\b"
        r"|\b(?:stop|withdraw|call off) (?:my |the |this )?order\b",
        "cancel_order",
        3.0,
    ),
)

SHIPPING_CUES: tuple[Cue, ...] = (
    ask(
        rf"\bwhere(?:'s|s| is| are|'re| r)? (?:my|the|our|this|that) (?:\w+ ){{0,2}}{THING}\b",
        "track_shipment",
        3.5,
    ),
    ask(
        r"\bwhere(?:'s|s| is| are|'re)? (?:my\b|it\b|they\b)|\bwhere (?:is|are) (?:it|they)\b",
        "track_shipment",
        2.5,
    ),
    ask(
        r"\bwhere(?:'s|s| is)? (?:order |my order )?(?:#\s*)?ord[\s\-_#]*\d{3,}",
        "track_shipment",
        3.5,
    ),
    ask(r"\btrack(?:ing|ed)?\b|\btrace\b", "track_shipment"),
    ask(
        r"\b(?:any )?(?:update|updates|news) (?:on|about|regarding|for) (?:my |the |this )?(?:order|package|parcel"
        r"|delivery|shipment|ord)|\bwhat'?s going on with (?:my |the )?(?:order|package|parcel|delivery)\b",
        "track_shipment",
    ),
    ask(
        r"\b(?:shipped|dispatched|sent out)\b.{0,10}\byet\b|\b(?:has|have|did|was|is) (?:\w+ ){0,3}"
        r"(?:been )?(?:shipped|dispatched|sent out)\b|\bhasn't (?:been )?(?:shipped|dispatched)\b",
        "track_shipment",
        2.5,
    ),
    ask(
        r"\bwhen (?:will|would|does|do|is|are|can|should) (?:\w+ ){0,4}(?:arrive|come|get here|be "
        r"(?:delivered|here|shipped)|reach|show up|ship|deliver(?:ed)?|receive|get (?:it|them|my))\b",
        "track_shipment",
    ),
    ask(
        r"\beta\b|\b(?:estimated|expected) (?:delivery|arrival)\b|\b(?:order|package|parcel|shipment"
        r"|shipping|delivery) status\b|\bstatus of (?:my |the )?(?:order|package|parcel|shipment|delivery)\b",
        "track_shipment",
        2.5,
    ),
    ask(
        r"\b(?:says|said|shows?|showing|marked|listed|status is)(?: as| it was| it's| it is| that it"
        r" was| that it's)? delivered\b|\bnothing (?:is |was )?(?:at|on|by) (?:my|the) (?:door|doorstep"
        r"|porch|house|mailbox)\b|\bnot (?:at|on) my (?:door|doorstep|porch)\b",
        "track_shipment",
    ),
    hint(NOT_ARRIVED, "track_shipment"),
    hint(
        r"\b(?:lost|missing|stolen|delayed|overdue|stuck)\b|\b(?:arrived|came|is|was|running|so|very|days?"
        r"|weeks?) late\b",
        "track_shipment",
    ),
    veto(
        r"\b(?:refund|money|payment|reimbursement|email|confirmation|code)\b.{0,30}\b(?:arrive|come"
        r"|show up|reach|receive|received|get)\b|\b(?:receive|received|get|got|see|seen) (?:my |the "
        r"|a |any )?(?:refund|money|email|e-mail|confirmation|code)\b|\bwhere(?:'s|s| is) (?:my |the )?"
        r"(?:refund|money|payment)\b",
        "track_shipment",
    ),
    request(
        r"\bre-?deliver\w*\b|\bdeliver (?:it |them |this |that |the \w+ )?again\b|\b(?:send|ship|bring)"
        r" (?:it |them |this |that |the \w+ )?(?:again|back out)\b|\bre-?send\b|\btry (?:to deliver |"
        r"delivering )?again\b|\b(?:another|second|new) (?:delivery )?attempt\b|\b(?:come|bring it|drop it"
        r" off) (?:back|again)\b",
        "arrange_redelivery",
    ),
    hint(
        r"\bmissed (?:the |my |your )?(?:delivery|package|parcel|courier|driver|drop-?off)\b|\b(?:wasn't"
        r"|was not|weren't|nobody was|no one was) (?:at )?home\b|\b(?:tried|attempted|came) to deliver\b"
        r"|\b(?:delivery|missed|attempted)[- ]"
        r"(?:notice|slip|card|attempt)\b|\bwas out when\b|\bleft a (?:note|notice|slip|card)\b",
        "arrange_redelivery",
        2.0,
    ),
    request(
        r"\b(?:change|reschedule|move|push|postpone|delay|shift|switch|modify|adjust)\b(?: \w+)"
        r"{0,5} (?:delivery|shipping|arrival|shipment|drop-?off)(?: (?:date|day|time|slot|window))?\b",
        "change_delivery_date",
    ),
    request(
        r"\breschedul\w*\b|\bpostpone\w*\b|\bhold (?:the |my |this )?(?:package|parcel|delivery|order|shipment)\b|\b(?:push|move)\b(?: \w+){0,4} (?:back|later|forward|earlier)\b"
        r"|\b(?:a |another |different )(?:delivery )?(?:date|day)\b",
        "change_delivery_date",
        3.0,
    ),
    hint(
        r"\binstead\b|\b(?:i'll|i will|i'm going to|we'll|i won't|i will not) (?:be )?(?:away|out of "
        r"town|traveling|travelling|on (?:a )?(?:trip|vacation|holiday)|not be (?:home|around)|be home)\b",
        "change_delivery_date",
        1.0,
    ),
    veto(r"\b(?:delivery|shipping|my|the|new) address\b", "change_delivery_date", 3.5),
)

PAYMENT_CUES: tuple[Cue, ...] = (
    request(
        r"\brefund (?:me|it|this|that|them|my|the|please)\b|\b(?:want|need|like|request|demand|give me"
        r"|issue|expect|requesting|process) (?:a |my |the |full |partial |an? (?:full|partial) )?refund\b"
        r"|\bplease refund\b|\bmoney back\b|\breimburse\w*\b|\b(?:want|like|need) to (?:return|send back)\b",
        "process_refund",
    ),
    ask(r"\b(?:can|could|may) i (?:get|have|receive) (?:a |my )?refund\b", "process_refund"),
    hint(
        r"\brefund\w*\b|\breturn (?:it|this|the|my|them|an? \w+|these)\b|\bsend (?:it|this) back\b",
        "process_refund",
    ),
    hint(
        r"\b(?:broken|damaged|defective|faulty|cracked|torn|scratched|smashed|dented|stained)\b|\b(?:doesn't"
        r"|does not|didn't|won't) work\b|\bnot working\b|\bwrong (?:item|size|colou?r|product|thing)s? "
        r"(?:was |were )?(?:sent|delivered|arrived|came)\b|\b(?:sent|received|got) (?:me )?(?:the |a )?wrong\b",
        "process_refund",
        1.0,
    ),
    ask(
        r"\b(?:refund|payment|money|charge|reimbursement|transfer)s?\b.{0,30}\b(?:gone through|go through"
        r"|went through|processed|yet|status|pending|come back|comes back|coming back|back to my|arrive"
        r"|been (?:issued|sent|processed|made|completed|paid)|show up|shows up|reflected|completed"
        r"|complete|confirmed|received|get back|receive)\b",
        "check_payment_status",
    ),
    ask(
        r"\bwhen\b.{0,30}\b(?:refund|money|payment|reimbursement)\b|\bwhere(?:'s|s| is) (?:my |the )?"
        r"(?:refund|money|payment)\b|\bstatus of (?:my |the )?(?:refund|payment)\b|\bhow long\b.{0,30}\brefund\b",
        "check_payment_status",
    ),
    ask(
        r"\b(?:charged|billed|debited|taken|deducted)\b.{0,20}\b(?:twice|double|two times|2 times|again"
        r"|more than|too much|wrong|incorrect|extra)\b|\bdouble[- ]?(?:charged|billed|charge|payment)\b"
        r"|\bduplicate (?:charge|payment)\b|\bovercharged\b",
        "check_payment_status",
    ),
    ask(
        r"\b(?:charged|billed|paid)\b.{0,40}\b(?:but|yet|although|though)\b|\b(?:payment|card|transaction)"
        r"\b.{0,20}\b(?:failed|declined|rejected|error|didn't go through|did not go through|was refused)\b"
        r"|\b(?:order|it) (?:shows|says|is showing|showing|marked)(?: as)? failed\b",
        "check_payment_status",
    ),
    ask(
        r"\b(?:wrong|incorrect|different|higher) (?:amount|price|total|charge)\b|\b(?:amount|price|total"
        r"|charge|bill|invoice)\b.{0,20}\b(?:wrong|incorrect|different|doesn't match|does not match"
        r"|too high)\b|\bpayment status\b",
        "check_payment_status",
    ),
    hint(
        r"\b(?:charged?|billed?|billing|payment|paid|card|transaction)\b",
        "check_payment_status",
        1.0,
    ),
    request(
        r"\bcompensat\w*\b|\bgoodwill\b|\bmake (?:it|this) up to me\b|\bmake up for\b|\bfor (?:the|my)"
        r" (?:trouble|inconvenience)\b",
        "apply_coupon",
    ),
    request(
        r"\b(?:give|send|offer|get) (?:me |us )?(?:a |some |any )?(?:coupon|voucher|discount)\b",
        "apply_coupon",
        3.0,
    ),
    ask(
        r"\b(?:apply|use|add|redeem|enter)\b(?: \w+){0,3} (?:coupon|promo|voucher|discount|code)\b"
        r"|\b(?:coupon|promo|voucher|discount) code\b.{0,30}\b(?:apply|work|accept|didn't|not|doesn't|failed)\b",
        "apply_coupon",
    ),
    hint(r"\b(?:coupon|voucher|promo|discount)s?\b", "apply_coupon", 1.0),
)

FAQ_CUES: tuple[Cue, ...] = (
    request(
        r"\b(?:talk|speak|chat|connect|transfer|put)\b(?: \w+){0,3} (?:to|with|through to) (?:a |an |the "
        r"|some |your )?(?:real |actual |live |human |other )?(?:person|human|someone|somebody|agent"
        r"|representative|rep|operator|manager|supervisor|staff|employee|people)\b|\b(?:real|actual|live)"
        r" (?:person|human|agent|representative|people)\b|\bhuman (?:agent|being|support|representative)\b"
        r"|\bnot (?:a |an |the )?(?:bot|robot|ai|machine)\b|\b(?:call|phone) me\b",
        "contact_human",
        4.0,
    ),
    hint(r"\b(?:representative|operator|manager|supervisor)\b", "contact_human"),
    topic(
        r"\b(?:return|returns|refund|exchange|cancellation|shipping|delivery|privacy) policy\b|\bpolicy\b"
        r"|\bterms (?:and|&) conditions\b|\bhow (?:long|many days) (?:do i have|have i got|can i wait)\b"
        r"|\breturn window\b|\b(?:can|may|could) i (?:still )?(?:return|exchange)\b|\bwithin (?:how many|\d+) days\b",
        "answer_general_question",
    ),
    topic(
        r"\b(?:do|does|can|will) (?:you|your (?:shop|store|company)) (?:ship|deliver|send)\b"
        r"(?! (?:it|them|this|that|my|me)\b)|\bship(?:ping)?"
        r" (?:to|overseas|internationally|abroad)\b(?! (?:my|me)\b)|\bhow long (?:does|will|would) (?:it"
        r"|shipping|delivery|standard shipping|express shipping) (?:usually |normally )?take\b|\bhow (?:many"
        r"|much) (?:days|time)\b.{0,30}\b(?:ship|deliver|delivery|arrive|take)\w*\b|\b(?:shipping|delivery)"
        r" (?:cost|costs|fee|fees|charge|charges|time|times|rates?|options?)\b|\bfree shipping\b",
        "answer_general_question",
    ),
    topic(
        r"\bgift[- ]?wrap\w*\b|\bgift (?:box|bag|message|receipt|option)s?\b|\bwrapping\b|\bmessage card\b",
        "answer_general_question",
    ),
    topic(
        r"\bexchange\w*\b|\bswap (?:it|for|the size)\b|\b(?:different|another|bigger|smaller) size\b",
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
        r"\bpayment (?:methods?|options?|types?)\b|\b(?:methods?|ways?) (?:of|to) pay\b|\b(?:do|does|can) "
        r"(?:you|i) (?:accept|take|pay (?:by|with|using|via|in))\b|\bpay (?:by|with|using|via) (?:paypal"
        r"|cash|bank|konbini|convenience|credit|debit|card|apple|google|installments?)\b|\b(?:cash on "
        r"delivery|cod|convenience store|konbini|paypal|paypay|bank transfer|installments?|apple pay"
        r"|google pay)\b",
        "search_faq",
    ),
    topic(
        r"\bpassword\b|\blog ?in\b|\blog(?:ging)? in\b|\bsign(?:ing)? (?:in|up)\b|\baccount (?:settings|details|info"
        r"|information|page|name)\b|\b(?:create|make|open|delete|close|deactivate|register|change|update|access"
        r"|into|out of) (?:an |my |the )?account\b|\baccount (?:is |was |got )?(?:locked|suspended|hacked)\b"
        r"|\bon my account\b|\b(?:change|update|reset|forgot|forget|lost)\b(?: \w+){0,2} (?:email|e-mail|password"
        r"|username|user name|phone number)\b|\be-?mail "
        r"address\b|\bnewsletter\b|\bunsubscrib\w*\b|\bregist(?:er|ration)\b|\bprofile\b|\baddress\b",
        "search_faq",
    ),
    topic(
        r"\b(?:coupons?|vouchers?|promo codes?|discount codes?|points?)\b.{0,30}\b(?:combine|combined|stack"
        r"|together|at once|same order|one order|per order|expire|expiry|expiration|valid)\b|\b(?:two|2"
        r"|multiple|several|more than one) (?:coupons|vouchers|codes|discounts)\b|\bhow (?:do|can|to) (?:i )?"
        r"(?:use|apply|redeem|get|find|enter) (?:a |my |the )?(?:coupon|voucher|promo|discount|code|points)\b"
        r"|\bloyalty\b|\breward points?\b",
        "search_faq",
    ),
    topic(r"\breceipts?\b|\binvoices?\b", "search_faq", 2.5),
    topic(
        r"\bhow (?:do|can|should|would) i\b|\bhow to\b|\bwhere (?:can|do) i (?:find|see|check|change|get"
        r"|download)\b|\bwhich\b.{0,20}\b(?:methods|options|ways)\b",
        "search_faq",
        1.0,
    ),
)

CUES_EN: tuple[Cue, ...] = ORDER_CUES + SHIPPING_CUES + PAYMENT_CUES + FAQ_CUES
