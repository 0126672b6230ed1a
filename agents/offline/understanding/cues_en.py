"""English intent cues. Written against lower-cased text whose key words were already
typo-corrected (``typos.correct_typos``), so a pattern names each word once. The payment and
FAQ cues live in ``cues_en_payment`` and ``cues_en_faq``."""

from __future__ import annotations

from agents.offline.understanding.cues_en_faq import FAQ_CUES
from agents.offline.understanding.cues_en_payment import PAYMENT_CUES
from agents.offline.understanding.lexicon import Cue, ask, hint, request, veto

THING = (
    r"(?:order|orders|package|packages|parcel|parcels|stuff|delivery|shipment|item|items|box"
    r"|things|purchase|goods|products?)"
)
MONTH = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december"
    r"|last month|this month|last week|this year|last year)"
)
NOT_ARRIVED = (
    r"\b(?:hasn't|has not|haven't|have not|didn't|did not|never|not yet|still not|isn't|is not"
    r"|aren't|not) (?:yet )?(?:arrived?|come|came|received?|got(?:ten)?|been delivered|delivered"
    r"|shown up|showed up|show up|here|turned up)\b|\bstill waiting\b"
    r"|\bnothing (?:has )?(?:came|come|arrived|showed up|turned up)\b"
    r"|\b(?:still )?no (?:sign of )?(?:my |the |a )?(?:package|parcel|order|delivery|shipment)\b"
)

ORDER_CUES: tuple[Cue, ...] = (
    ask(
        r"\b(?:order|purchase|buying|shopping) history\b"
        r"|\b(?:past|previous|recent|old|all(?: of)?(?: my)?) (?:orders|purchases)\b"
        r"|\blist (?:of )?(?:my |all )?(?:orders|purchases)\b"
        r"|\borders (?:that )?i (?:placed|made|ordered)\b"
        r"|\b(?:show|see|view|find|check) (?:me )?(?:my |the |all )?(?:orders|purchases)\b",
        "search_orders",
    ),
    ask(
        rf"\bmy orders\b"
        rf"|\bwhat (?:did|have) i (?:order|buy|bought"
        rf"|purchase)(?:ed)? (?:(?:in|during|from) )?{MONTH}",
        "search_orders",
        2.0,
    ),
    ask(r"\b(?:cancell?ed|shipped|pending|delivered|unshipped) orders\b", "search_orders", 2.5),
    hint(
        rf"\b(?:orders|purchases|ordered|bought"
        rf"|purchased) (?:\w+ ){{0,3}}(?:(?:in|during|from|since|over) )?{MONTH}",
        "search_orders",
        1.0,
    ),
    ask(
        r"\b(?:everything|all(?: the \w+)?|all of what) i(?:'ve| have)? (?:ordered|bought"
        r"|purchased)\b|\b(?:what|which) orders\b|\borders do i have\b",
        "search_orders",
    ),
    ask(
        r"\border (?:details|contents|summary|info|information)\b|\bdetails (?:of|for|about|on) "
        r"(?:my |the |this |that )?order\b|\bwhat(?:'s| is| was)? (?:exactly )?(?:was |is )?in "
        rf"(?:my |the |this |that )?(?:order|package|parcel|box)\b"
        rf"|\bwhat (?:\w+ ){{0,2}}(?:did|have) i "
        rf"(?:order|buy|bought|purchase)(?:ed)?\b(?! (?:(?:in|during|from) )?{MONTH})",
        "get_order_details",
    ),
    ask(
        r"\bhow much (?:did i (?:pay|spend)|was (?:my |the |this )?order)\b",
        "get_order_details",
        2.5,
    ),
    ask(
        r"\b(?:details|breakdown|itemi[sz]ed)\b.{0,20}\b(?:for|of|on) (?:my |the "
        r"|this )?(?:order\b|ord)",
        "get_order_details",
    ),
    hint(
        r"\bconfirmation (?:email|e-mail|mail|message)\b|\bwhich items\b"
        r"|\bitems in (?:my |the )?order\b",
        "get_order_details",
    ),
    request(
        r"\bcancel(?!l?ed\b)\w*\b|\bvoid (?:it|this|that|the order|my order)\b", "cancel_order"
    ),
    hint(r"\bby mistake\b|\baccidentally\b|\bmistakenly\b|\bchanged my mind\b", "cancel_order"),
    ask(
        r"\b(?:items?|prices?|contents|products?|what's|what is|what was)\b.{0,25}\b(?:on|in|of"
        r"|for) (?:order |my order )?(?:#\s*)?ord[\s\-_#]*\d{3,}",
        "get_order_details",
    ),
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
    ask(r"\bwhere(?:'s|s| is| are|'re)? my\b", "track_shipment", 2.5),
    # Below SELECT_MIN: "where is it" decides only when nothing else is asked ("you promised a
    # coupon, where is it?" is about the coupon).
    hint(r"\bwhere(?:'s|s| is| are|'re)? (?:it|they)\b", "track_shipment", 1.0),
    ask(
        r"\bwhere(?:'s|s| is)? (?:order |my order )?(?:#\s*)?ord[\s\-_#]*\d{3,}",
        "track_shipment",
        3.5,
    ),
    ask(r"\btrack(?:ing|ed)?\b|\btrace\b", "track_shipment"),
    ask(
        r"\b(?:been )?waiting (?:forever|so long|ages|for ages"
        r"|for (?:weeks|days|a week|a month|\d+ \w+)|since)\b",
        "track_shipment",
        2.5,
    ),
    ask(
        r"\b(?:shipping|delivery|tracking|shipment) (?:update|updates|info|information|news)\b"
        r"|\b(?:taking|takes|took) (?:so|too|this) long\b|\bso slow\b",
        "track_shipment",
        2.5,
    ),
    ask(
        r"\bdid (?:you|they) (?:even |actually |ever )?(?:send|ship|dispatch|post) (?:my|the|it"
        r"|them)\b",
        "track_shipment",
    ),
    ask(
        r"\bout for delivery\b|\bon (?:its|the|their) way\b|\bin transit\b"
        r"|\bhow(?:'s| is| are) my (?:order|package|parcel|delivery|shipment|stuff)\b"
        r"|\b(?:arrive|get here|be here|be delivered|make it)\b.{0,20}\b(?:before|by|in time"
        r"|on time)\b|\bwill (?:it|they|my \w+) (?:make it|arrive|get here|come|be here)\b",
        "track_shipment",
        2.5,
    ),
    ask(
        r"\b(?:any )?(?:update|updates|news) (?:on|about|regarding|for) (?:my |the "
        r"|this )?(?:order|package|parcel|delivery|shipment|ord)"
        r"|\bwhat'?s going on with (?:my |the )?(?:order|package|parcel|delivery)\b",
        "track_shipment",
    ),
    ask(
        r"\b(?:shipped|dispatched|sent out)\b.{0,10}\byet\b"
        r"|\b(?:has|have|did|was|is) (?:\S+ ){0,3}(?:been )?(?:shipped|dispatched|sent out)\b"
        r"|\bhasn't (?:been )?(?:shipped|dispatched)\b",
        "track_shipment",
        2.5,
    ),
    ask(
        r"\bwhen (?:will|would|does|do|is|are|can|should) (?:\w+ ){0,4}(?:arrive|come|get here"
        r"|be (?:delivered|here|shipped)|reach|show up|ship|deliver(?:ed)?|receive"
        r"|get (?:it|them|my))\b",
        "track_shipment",
    ),
    ask(
        r"\beta\b|\b(?:estimated|expected) (?:delivery|arrival)\b"
        r"|\b(?:order|package|parcel|shipment|shipping|delivery) status\b"
        r"|\bstatus of (?:my |the )?(?:order|package|parcel|shipment|delivery)\b",
        "track_shipment",
        2.5,
    ),
    ask(
        r"\b(?:says|said|shows?|showing|marked|listed|status is)(?: as| it was| it's| it is"
        r"| that it was| that it's)? delivered\b"
        r"|\bnothing (?:is |was )?(?:at|on|by) (?:my|the) (?:door|doorstep|porch|house|mailbox)\b"
        r"|\bnot (?:at|on) my (?:door|doorstep|porch)\b",
        "track_shipment",
    ),
    hint(NOT_ARRIVED, "track_shipment"),
    hint(
        r"\b(?:lost|missing|stolen|delayed|delays?|overdue|stuck)\b"
        r"|\b(?:arrived|came|is|was|running|so|very|days?|weeks?) late\b",
        "track_shipment",
    ),
    veto(
        r"\b(?:refund|money|payment|reimbursement|email|confirmation|code)\b.{0,30}\b(?:arrive"
        r"|come|show up|reach|receive|received|get)\b"
        r"|\b(?:receive|received|get|got|see|seen) (?:my |the |a |any )?(?:refund|money|email"
        r"|e-mail|confirmation|code)\b|\bwhere(?:'s|s| is) (?:my |the )?(?:refund|money|payment)\b",
        "track_shipment",
    ),
    request(
        r"\bre-?deliver\w*\b|\bdeliver(?:ed|ing)? (?:it |them |this |that |the \w+ )?again\b"
        r"|\b(?:send|ship|bring) (?:it |them |this |that |the \w+ )?(?:again|back out)\b"
        r"|\bre-?send\b|\btry (?:to deliver |delivering )?again\b"
        r"|\b(?:another|second|new) (?:delivery )?attempt\b"
        r"|\b(?:come|bring it|drop it off) (?:back|again)\b",
        "arrange_redelivery",
    ),
    hint(
        r"\bmissed (?:the |my |your )?(?:delivery|package|parcel|courier|driver|drop-?off)\b"
        r"|\b(?:wasn't|was not|weren't|nobody was|no one was) (?:at )?(?:home|in)\b"
        r"|\b(?:returned|taken|sent) (?:back )?to (?:the )?(?:depot|warehouse|post office"
        r"|sender)\b|\b(?:tried|attempted|came) to deliver\b"
        r"|\b(?:delivery|missed|attempted)[- ](?:notice|slip|card|attempt)\b|\bwas out when\b"
        r"|\bleft a (?:note|notice|slip|card)\b",
        "arrange_redelivery",
        2.0,
    ),
    request(
        r"\b(?:change|reschedule|move|push|postpone|delay|shift|switch|modify"
        r"|adjust)\b(?: \w+){0,5} (?:delivery|shipping|arrival|shipment"
        r"|drop-?off)(?: (?:date|day|time|slot|window))?\b",
        "change_delivery_date",
    ),
    request(
        r"\b(?:attempt|try|make)\b.{0,15}\bdeliver\w*\b.{0,15}"
        r"\b(?:once more|again|one more time)\b",
        "arrange_redelivery",
    ),
    request(
        r"\b(?:change|move|reschedule)\b.{0,25}\b(?:arrives?|arrival|comes|gets? delivered"
        r"|is delivered)\b",
        "change_delivery_date",
        3.0,
    ),
    request(
        r"\breschedul\w*\b|\bpostpone\w*\b"
        r"|\bhold (?:the |my |this )?(?:package|parcel|delivery|order|shipment)\b"
        r"|\b(?:push|move)\b(?: \w+){0,4} (?:back|later|forward|earlier)\b"
        r"|\b(?:a |another |different )(?:delivery )?(?:date|day)\b",
        "change_delivery_date",
        3.0,
    ),
    hint(
        r"\binstead\b"
        r"|\b(?:i'll|i will|i'm going to|we'll|i won't|i will not) (?:be )?(?:away|out of town"
        r"|traveling|travelling|on (?:a )?(?:trip|vacation|holiday)|not be (?:home|around)"
        r"|be home)\b",
        "change_delivery_date",
        1.0,
    ),
    request(
        r"\b(?:delivery|shipment|package|parcel|order)(?: date)? (?:be |get |to be )?(?:moved"
        r"|changed|rescheduled|postponed|pushed|delayed|shifted)\b"
        r"|\bdeliver (?:it |them )?(?:after|later|on another|on a different)\b",
        "change_delivery_date",
        3.0,
    ),
    hint(
        r"\bbusiness trip\b|\b(?:on|taking) (?:a )?(?:trip|vacation|holiday)\b",
        "change_delivery_date",
        1.0,
    ),
    veto(r"\b(?:delivery|shipping|my|the|new) address\b", "change_delivery_date", 3.5),
)

CUES_EN: tuple[Cue, ...] = ORDER_CUES + SHIPPING_CUES + PAYMENT_CUES + FAQ_CUES
