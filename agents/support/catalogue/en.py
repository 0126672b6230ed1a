"""Every sentence and word an English-speaking customer reads, keyed by stable ids.

The same keys and placeholders as ``ja.py`` (a test checks it); see there for what belongs
here. English sentences the offline writer builds start with a capital letter whatever their
first placeholder holds (``agents.providers.offline.writing.reply.Reply.say``).
"""

from __future__ import annotations

from typing import Final

_REVIEWING_EN: Final = "A member of our staff is reviewing it and will get back to you shortly."

MESSAGES: Final[dict[str, str]] = {
    # --- Replies: the greeting, the closing, and one paragraph per thing asked about
    "reply.greeting": ("Hello, and thank you for contacting NetShop customer support."),
    "reply.closing": (
        "If there is anything else we can help with, just reply to this message. "
        "Thank you for shopping with NetShop."
    ),
    "reply.order_head": ("Here are the details of {order_ref} (placed {placed}):"),
    "reply.order_line": "- {name} × {quantity}: {subtotal}",
    "reply.order_total": "Total: {total}. Current status: {status}.",
    "reply.order_refunded": "{refunded} of this has been refunded.",
    "reply.order_shipment": "Delivery status: {status}.",
    "reply.order_shipment_dated": "Delivery status: {status}, scheduled for {date}.",
    "reply.orders_head": "Here are your orders, newest first:",
    "reply.orders_line": "- {number} (placed {placed}): {total}, {status}",
    "reply.orders_more": "…and {count} more.",
    "reply.orders_none": ("We could not find any orders matching your request."),
    "reply.ask_order_number": (
        "We couldn't tell which order you mean. Could you send us the order number "
        "(for example ORD-1234)?"
    ),
    "reply.track_fallback": (
        "We can't reach the carrier's tracking system right now, so this is the latest "
        "status in our own records."
    ),
    "reply.track_status": (
        "Your parcel for {order_ref} ({carrier}, tracking number {tracking}) is currently {status}."
    ),
    "reply.track_status_untracked": ("Your parcel for {order_ref} is currently {status}."),
    "reply.track_scheduled": "It is scheduled to arrive on {date}.",
    "reply.track_event": "Last update: {time}{place}.",
    "reply.track_event_status": "Latest update: {status} ({time}{place}).",
    "reply.track_absent": (
        "If you tell us a date and time window that suits you, we will arrange a redelivery."
    ),
    "reply.track_open_case": (
        "You told us on {date} that this parcel has not arrived: that case is still open, and "
        "a member of our staff who is checking it with the carrier will contact you."
    ),
    "reply.redelivery_booked": (
        "We have booked a redelivery of your parcel for {order_ref} on {date}, {window}."
    ),
    "reply.date_changed": (
        "We have changed the delivery date of {order_ref} from {previous} to {date}."
    ),
    "reply.date_changed_to": ("We have changed the delivery date of {order_ref} to {date}."),
    "reply.payment_authorized": (
        "For {order_ref} ({method}), {authorized} is reserved on your card; "
        "you have not been charged yet."
    ),
    "reply.payment_captured": (
        "Your payment of {captured} for {order_ref} ({method}) is complete."
    ),
    "reply.payment_partially_refunded": (
        "Of your payment of {captured} for {order_ref} ({method}), {refunded} has been refunded."
    ),
    "reply.payment_refunded": (
        "Your payment for {order_ref} ({method}) has been refunded in full ({refunded})."
    ),
    "reply.payment_refunded_open": (
        "Your payment for {order_ref} ({method}) has been refunded in full."
    ),
    "reply.payment_failed": (
        "The payment for {order_ref} ({method}) did not go through. "
        "Could you check your payment method?"
    ),
    "reply.payment_voided": (
        "The reservation on your payment for {order_ref} ({method}) has been released; "
        "you have not been charged."
    ),
    "reply.payment_unknown": ("We have checked the payment for {order_ref} ({method})."),
    "reply.coupon_issued": (
        "As an apology, we have issued you a {value}coupon for your next order. "
        "Coupon code: {code} (valid until {expires})."
    ),
    "reply.coupon_issued_open": (
        "As an apology, we have issued you a {value}coupon for your next order. "
        "Coupon code: {code}."
    ),
    "reply.faq_answer": "About {topic}:\n{answer}",
    "reply.faq_none": ("I'm sorry, we couldn't find an answer to your question in our help pages."),
    "reply.pending_refund": (
        "We have received your request for a refund of {amount} on {order_ref}. A member of our "
        "staff is reviewing it and will get back to you shortly."
    ),
    "reply.pending_refund_open": (
        "We have received your refund request for {order_ref}. A member of our staff is "
        "reviewing it and will get back to you shortly."
    ),
    "reply.pending_capped": (
        "Please note that a refund can be at most the amount you paid, so the request is for "
        "{amount}."
    ),
    "reply.pending_cancel": (
        "We have received your request to cancel {order_ref}. A member of our staff is "
        "reviewing it and will get back to you shortly."
    ),
    "reply.refund_done": (
        "We have refunded {amount} for {order_ref}. The money goes back to your original "
        "payment method and may take a few days to appear."
    ),
    "reply.refund_done_open": (
        "We have issued the refund for {order_ref}. The money goes back to your original "
        "payment method and may take a few days to appear."
    ),
    "reply.cancel_done": "{order_ref} has been cancelled.",
    "reply.authorization_released": (
        "The hold on your card has been released, so you will not be charged."
    ),
    "reply.declined": ("We're sorry, but we were unable to approve {target}."),
    "reply.declined_reason": "Reason: {reason}",
    "reply.taken_over": ("A member of our staff will handle {target} personally."),
    "reply.refused_at_execution": (
        "We could not complete {target} because the order had changed by the time we processed it."
    ),
    "reply.action_failed": (
        "A problem occurred while processing {target}, so it could not be completed. "
        "A member of our staff will look into it and contact you."
    ),
    "reply.tool_error": (
        "We couldn't process {tool} right now because of a system problem. "
        "Please try again a little later."
    ),
    "reply.not_checked": (
        "I'm sorry, we couldn't check {labels} right now. We will follow up as soon as we can."
    ),
    "reply.ask_details": (
        "Thank you for your message. Could you tell us a little more, such as the order "
        "number, so that we can look into it?"
    ),
    "reply.ask_details_named": (
        "Thank you for your message about {order_ref}. Could you tell us a little more about "
        "what you need, so that we can look into it?"
    ),
    "reply.handover": (
        "I've passed your inquiry to a member of our staff, who will contact you directly."
    ),
    "reply.follow_up": ("A member of our staff will look into this and contact you."),
    "reply.held": ("A member of our staff will check {tool} and contact you before going ahead."),
    # --- Replies: returns, exchanges and item changes
    "reply.pending_return": (
        "We have received your request to return {items} from {order_ref}, with a refund "
        "of {amount}. " + _REVIEWING_EN
    ),
    "reply.pending_exchange": (
        "We have received your request to exchange {item} from {order_ref} for {variant}. "
        + _REVIEWING_EN
    ),
    "reply.pending_item_change": (
        "We have received your request to change {order_ref} ({changes}), for a new total "
        "of {total}. " + _REVIEWING_EN
    ),
    "reply.return_done": (
        "We have accepted the return of {items} from {order_ref} and refunded {amount}. The "
        "money goes back to your original payment method and may take a few days to appear."
    ),
    "reply.send_back": "Please send the item back to us.",
    "reply.exchange_done": (
        "We have accepted the exchange of {item} from {order_ref} for {variant} and shipped "
        "the replacement (tracking number {tracking})."
    ),
    "reply.item_change_done": (
        "We have changed {order_ref} ({changes}); the new total is {total}."
    ),
    "reply.authorization_lowered": (
        "The hold on your card has been lowered to the new total as well."
    ),
    "reply.change_removed": "{name} removed",
    "reply.change_lowered": "{name} reduced to {quantity}",
    # --- Replies: the delivery address, refunds made and receipts
    "reply.address_changed": (
        "We have updated the delivery address of {order_ref} to {address_line}, {prefecture} "
        "{postal_code}."
    ),
    "reply.refund_made": ("A refund of {amount} for {order_ref} was completed on {date}."),
    "reply.refund_made_more": ("These refunds for {order_ref} have been completed:"),
    "reply.refund_line": "- {date}: {amount}",
    "reply.refund_where": (
        "Refunds go back to the original payment method; depending on your card company it "
        "may take a few days for them to appear."
    ),
    "reply.refund_none": ("There is no refund on record for {order_ref} so far."),
    "reply.refund_waiting": (
        "Your request for a refund of {amount} on {order_ref} is being reviewed by a member of "
        "our staff, who will contact you once it is decided."
    ),
    "reply.receipt_issued": (
        "We have issued the receipt for {order_ref} (receipt number {number}, addressed to "
        "{addressee}, {amount})."
    ),
    "reply.receipt_reissued": (
        "We have reissued the receipt for {order_ref} (the same receipt number, {number}, "
        "addressed to {addressee}, {amount}, marked as a reissue)."
    ),
    "reply.receipt_less_refunds": (
        "The amount is what you paid, {paid}, less the {refunded} already refunded."
    ),
    "reply.receipt_where": (
        "You can download it as a PDF from the “Receipt (PDF)” link shown with this "
        "conversation on our help page."
    ),
    # --- Refusals: why the shop said no, by the rule that refused
    "refusal.order_not_found": (
        "We couldn't find {order_ref} on your account. Could you double-check the order number?"
    ),
    "refusal.order_not_cancellable": (
        "{order_ref} can no longer be cancelled: we can only cancel orders that have not "
        "shipped yet."
    ),
    "refusal.order_not_cancellable.cancelled": (
        "{order_ref} has already been cancelled, so there is nothing more you need to do."
    ),
    "refusal.order_not_cancellable.shipped": (
        "{order_ref} has already shipped, so it can no longer be cancelled. If you would "
        "like to return it once it arrives, just let us know."
    ),
    "refusal.order_not_cancellable.delivered": (
        "{order_ref} has already been delivered, so it can no longer be cancelled. If you "
        "would like to return it, just let us know."
    ),
    "refusal.payment_not_captured": (
        "The payment for {order_ref} has not been completed, so there is nothing to refund."
    ),
    "refusal.refund_exceeds_captured": (
        "A refund can be at most the amount you paid, less anything already refunded."
    ),
    "refusal.nothing_to_refund": ("There is no amount left to refund on {order_ref}."),
    "refusal.no_payment": "We have no payment on record for {order_ref}.",
    "refusal.no_shipment": (
        "{order_ref} has not shipped yet, so there is no tracking information so far."
    ),
    "refusal.shipment_not_found": (
        "We couldn't find a parcel with that tracking number on your account. "
        "Could you double-check it?"
    ),
    "refusal.redelivery_not_allowed": (
        "Redelivery can only be arranged for parcels taken back to the depot because nobody "
        "was home; the parcel for {order_ref} is not in that state, so we could not book one."
    ),
    "refusal.slot_out_of_range": (
        "A redelivery can be booked for a day from tomorrow up to {redelivery_days} days "
        "ahead, and the date you asked for is outside that period, so we could not book it. "
        "Could you choose a date within it?"
    ),
    "refusal.invalid_slot_window": (
        "That time window is not available. Please choose one of: morning (8am-12pm), "
        "12-2pm, 2-4pm, 4-6pm or 6-9pm."
    ),
    "refusal.date_change_not_allowed": (
        "The delivery date of {order_ref} can no longer be changed: a delivery date can only "
        "be changed before the parcel goes out for delivery."
    ),
    "refusal.date_out_of_range": (
        "A delivery can be moved to a day from today up to {date_change_days} days after the "
        "date first planned, and the date you asked for is outside that period, so we could "
        "not change it. Could you choose a date within it?"
    ),
    "refusal.date_unchanged": (
        "The date you asked for is already the scheduled delivery date, so there is nothing "
        "to change. If you meant another day, just tell us which."
    ),
    "refusal.coupon_already_issued": ("We have already issued a coupon for this inquiry."),
    "refusal.coupon_limit_reached": (
        "Apology coupons are limited to a set number per customer within a given period, "
        "and that limit has been reached, so we cannot issue another coupon now."
    ),
    "refusal.coupon_no_cause": (
        "We send apology coupons when something went wrong on our side, such as a late "
        "delivery or a missed redelivery. We could not find anything like that on your "
        "orders, so we are unable to issue a coupon this time."
    ),
    "refusal.coupon_expired_not_reissued": (
        "We're sorry, but coupons that have expired cannot be reissued."
    ),
    "refusal.coupon_cause_compensated": (
        "We have already sent you an apology coupon for this, so we cannot issue another."
    ),
    "refusal.address_change_not_allowed": (
        "The parcel for {order_ref} has already been handed to the carrier, so its delivery "
        "address can no longer be changed: we can only change the address before a parcel "
        "leaves us."
    ),
    "refusal.address_change_not_allowed.delivered": (
        "{order_ref} has already been delivered, so its delivery address can no longer be changed."
    ),
    "refusal.address_change_not_allowed.cancelled": (
        "{order_ref} has been cancelled, so there is no delivery address to change."
    ),
    "refusal.invalid_address": (
        "We couldn't read that as a complete address in Japan. Could you send it again with "
        "the postal code, prefecture, city and street (for example: 1-2-3 Ginza, Chuo-ku, "
        "Tokyo 104-0061)?"
    ),
    "refusal.receipt_not_paid": (
        "The payment for {order_ref} has not been completed yet, so we cannot issue a "
        "receipt for it. Please ask again once it is paid."
    ),
    "refusal.receipt_fully_refunded": (
        "{order_ref} was refunded in full, so there is no payment left for a receipt to "
        "cover, and we have not issued one."
    ),
    "refusal.receipt_addressee_invalid": (
        "We couldn't issue the receipt, because the addressee you gave cannot be printed as a "
        "name: it can only be a person's or a company's name (for example, Acme Trading "
        "Ltd.). Could you send us just the name?"
    ),
    "refusal.receipt_addressee_invalid.amount": (
        "We couldn't issue the receipt, because the addressee you gave contains an amount, a "
        "currency sign or tax wording, and only a name can be printed there. Could you send "
        "us just the person's or company's name?"
    ),
    "refusal.receipt_addressee_invalid.control": (
        "We couldn't issue the receipt, because the addressee you gave contains invisible "
        "control characters (such as ones that change the text direction), which cannot be "
        "printed. Could you send us just the person's or company's name again?"
    ),
    "refusal.receipt_addressee_invalid.too_long": (
        "We couldn't issue the receipt, because the addressee you gave is longer than "
        "{addressee_chars} characters. Could you send us just the person's or company's name, "
        "in {addressee_chars} characters or fewer?"
    ),
    "refusal.generic": ("We were unable to process {tool} in the current situation."),
    "refusal.order_not_delivered": (
        "{order_ref} has not been delivered yet, so it cannot be returned or exchanged. "
        "Please let us know once it has arrived."
    ),
    "refusal.return_window_passed": (
        "We're sorry, but items can only be returned within {return_days} days of "
        "delivery, and that period has passed for {order_ref}."
    ),
    "refusal.already_returned": ("The return of that item has already been accepted."),
    "refusal.item_not_returnable": (
        "We're sorry, but food and personalised items cannot be returned unless they are defective."
    ),
    "refusal.return_amount_exceeds_items": (
        "A return refunds at most the value of the items sent back."
    ),
    "refusal.item_not_in_order": (
        "We couldn't find that item in {order_ref}. Could you check the item's name?"
    ),
    "refusal.items_required": "Could you tell us which item you mean?",
    "refusal.exchange_window_passed": (
        "We're sorry, but items can only be exchanged within {exchange_days} days of "
        "delivery, and that period has passed for {order_ref}."
    ),
    "refusal.no_such_variant": ("That size or colour is not available for this item."),
    "refusal.variant_out_of_stock": (
        "We're sorry, but that size or colour is out of stock. When it is, we refund the "
        "item instead: just let us know if you would like that."
    ),
    "refusal.already_exchanged": (
        "An item can be exchanged once, and this one has already been exchanged."
    ),
    "refusal.order_not_modifiable": (
        "Items cannot be changed once an order is confirmed, and {order_ref} already is."
    ),
    "refusal.quantity_not_lowered": (
        "Items cannot be added to an order after it was placed; please place a new order "
        "for anything extra."
    ),
    "refusal.order_would_be_empty": (
        "Removing every item would cancel the order; let us know if you would like to cancel it."
    ),
    # --- Questions to the customer
    "question.thanks": "Thank you for your message.",
    "question.which_order": "Which order is this about?",
    "question.which_order_about": "Which order is this about ({about})?",
    "question.which_item": "Which item is this about?",
    "question.which_date": "Which date would suit you (for example, Dec 5)?",
    "question.which_time_window": (
        "Which time window would suit you (08-12, 12-14, 14-16, 16-18 or 18-21)?"
    ),
    "question.which_address": (
        "Could you send us the new delivery address, with the postal code and prefecture "
        "(for example: 1-2-3 Ginza, Chuo-ku, Tokyo 104-0061)?"
    ),
    "question.which_other": "Could you tell us a little more about it?",
    "question.which_request": (
        "We're sorry for the trouble. So that we can help, could you tell us what happened "
        "and, if it is about an order, which one? We can help with deliveries, returns and "
        "refunds, cancellations, exchanges, payments and receipts."
    ),
    "question.confirm": (
        "Just to be sure we understood: would you like us to go ahead with {action}? "
        'Reply "yes", or tell us a little more about what you need.'
    ),
    "question.option": "{index}. {value} ({label})",
    "question.option_bare": "{index}. {value}",
    "question.answer_how_order": ("Please reply with the number ({numbers}) or the order number."),
    "question.answer_how": "Please reply with the number ({numbers}).",
    # --- Hand-overs: a person follows up, and why
    "handover.claim": (
        "The carrier's records show {order_ref} as delivered, but you tell us it has not "
        "arrived: a member of our staff will check with the carrier and contact you."
    ),
    "handover.claim.charged_twice": (
        "Our records show a single charge for {order_ref}, but you tell us you were charged "
        "twice: a member of our staff will check with the payment company and contact you."
    ),
    "handover.claim.damaged_not_delivered": (
        "Our records show {order_ref} has not been delivered yet, but you tell us an item "
        "arrived damaged: a member of our staff will look into it and contact you."
    ),
    "handover.claim.item_not_in_order": (
        "We could not find the item you mention in {order_ref}: a member of our staff will "
        "look into it and contact you."
    ),
    "handover.instructions_to_system": (
        "We are unable to act on a message that asks us to bypass our procedures or claims "
        "special authority. A member of our staff will review your request and contact you."
    ),
    "handover.unsupported.address_change": (
        "A member of our staff handles changes of the delivery address: they will look into "
        "it and contact you."
    ),
    "handover.unsupported.exchange": (
        "A member of our staff handles exchanges for another size or colour: they will look "
        "into it and contact you."
    ),
    "handover.unsupported.return_item": (
        "A member of our staff will arrange sending the item back and contact you."
    ),
    # --- Words for the shop's codes: an order's status (netshop.models.OrderStatus)
    "order_status.pending": "received",
    "order_status.confirmed": "confirmed",
    "order_status.shipped": "shipped",
    "order_status.delivered": "delivered",
    "order_status.cancelled": "cancelled",
    # --- A parcel's status (ShipmentStatus)
    "shipment_status.preparing": "being prepared for shipment",
    "shipment_status.in_transit": "in transit",
    "shipment_status.out_for_delivery": "out for delivery",
    "shipment_status.delivered": "delivered",
    "shipment_status.absent_returned": "back at the depot (nobody was home)",
    # --- A payment method (PaymentMethod)
    "payment_method.card": "credit card",
    "payment_method.konbini": "convenience store payment",
    "payment_method.bank_transfer": "bank transfer",
    "payment_method.cod": "cash on delivery",
    # --- What a specialist checks, for the honest "could not check ..." sentence
    "agent.order": "your order details",
    "agent.shipping": "the delivery status",
    "agent.payment": "the payment status",
    "agent.faq": "our FAQ",
    # --- A tool or skill, as the object of a sentence ("... could not be processed")
    "tool.search_orders": "the order search",
    "tool.get_order_details": "the order lookup",
    "tool.cancel_order": "the cancellation",
    "tool.track_shipment": "the tracking check",
    "tool.arrange_redelivery": "the redelivery",
    "tool.change_delivery_date": "the delivery date change",
    "tool.process_refund": "the refund",
    "tool.check_payment_status": "the payment check",
    "tool.apply_coupon": "the coupon",
    "tool.change_shipping_address": "the change of delivery address",
    "tool.refund_status": "the refund check",
    "tool.issue_receipt": "the receipt",
    "tool.search_faq": "your question",
    "tool.answer_general_question": "your question",
    "tool.return_items": "the return",
    "tool.exchange_items": "the exchange",
    "tool.modify_order_items": "the order change",
    # --- An approval-gated action, as the object of a sentence ("{target} is being reviewed")
    "action.process_refund": "the refund for {order_ref}",
    "action.cancel_order": "the cancellation of {order_ref}",
    "action.return_items": "the return for {order_ref}",
    "action.exchange_items": "the exchange for {order_ref}",
    "action.modify_order_items": "the change to {order_ref}",
    # --- Neutral words for a code without its own: never the code itself
    "fallback.status": "being checked",
    "fallback.method": "your payment method",
    "fallback.carrier": "carrier",
    "fallback.tool": "your request",
    # --- What a help article is about, by its category (ArticleCategory)
    "faq_topic.returns": "returns, exchanges and refunds",
    "faq_topic.delivery": "delivery",
    "faq_topic.payment": "payment",
    "faq_topic.account": "your account",
    "faq_topic.coupons": "coupons",
    "faq_topic.orders": "orders",
    "faq_topic.other": "your question",
    # --- What a question may quote of the request: the offline model's reasons, in words
    "question.about.parcel_not_delivered": "parcel not delivered",
    "question.about.damaged_item": "damaged item",
    "question.about.wrong_item": "wrong item",
    "question.about.charged_twice": "charged twice",
    # --- How a sentence names things: orders, items, delivery windows, lists
    "order.named": "order {number}",
    "order.unnamed": "the order you mentioned",
    "option.more": " and more",
    "option.placed": "ordered {date}",
    "window.morning": "in the morning (8am-12pm)",
    "window.between": "between {start} and {end}",
    "list.and": "{head} and {last}",
    "list.and_separator": ", ",
    "list.or": "{head} or {last}",
    "list.comma": ", ",
    "reply.coupon_value": "{value} ",
    "reply.track_place": ", {place}",
    "reply.quoted_reason": "\u201c{words}\u201d",
    "reply.item": "{name}",
    "reply.items_of": "{quantity} × {name}",
    # --- The support domain's own messages to the customer
    "conversation.lapsed": (
        "We have not heard back from you, so we are closing this conversation for now. "
        "If you still need help, just reply here and we will pick it up where we left off."
    ),
    "run.crashed": (
        "We are sorry: something went wrong on our side and we could not answer your message "
        "just now. It has been passed to a member of our team, who will reply to you here."
    ),
    "escalation.overdue": (
        "Thank you for waiting. Your request needs a little longer than we expected: "
        "a member of our team is still checking it, and we will write to you here as soon "
        "as it is done."
    ),
    # --- The receipt as a PDF (issued in Japanese today: these keep the catalogues alike)
    "receipt.title": "Receipt",
    "receipt.subtitle": "RECEIPT",
    "receipt.document_title": "Receipt {number}",
    "receipt.reissued": "[Reissued]",
    "receipt.issued_on": "Issued {year}-{month}-{day}",
    "receipt.addressee": "{name}",
    "receipt.addressee_as_written": "{name}",
    "receipt.amount": "Amount {amount}",
    "receipt.purpose": "For goods purchased",
    "receipt.order": "Order number {number}",
    "receipt.received": "Received with thanks.",
    # --- Shipping (issue 24): a parcel's refusals by the parcel's state, with the way out
    "refusal.date_change_not_allowed.out_for_delivery": (
        "The parcel for {order_ref} is already out for delivery today, so its delivery date "
        "can no longer be changed. If nobody is home, the driver leaves a notice and takes it "
        "back to the depot; you can then ask us for a redelivery on a day and time that suits "
        "you."
    ),
    "refusal.date_change_not_allowed.absent_returned": (
        "The parcel for {order_ref} was taken back to the depot because nobody was home, so "
        "its delivery date cannot be changed; we can arrange a redelivery instead. Just tell "
        "us a date within the next {redelivery_days} days and a time window (morning, "
        "12-2pm, 2-4pm, 4-6pm or 6-9pm)."
    ),
    "refusal.date_change_not_allowed.delivered": (
        "{order_ref} has already been delivered, so its delivery date can no longer be changed."
    ),
    "refusal.redelivery_not_allowed.preparing": (
        "The parcel for {order_ref} has not been sent out yet, so there is nothing to "
        "redeliver. If another day suits you better, we can change its delivery date instead: "
        "just tell us which date."
    ),
    "refusal.redelivery_not_allowed.in_transit": (
        "The parcel for {order_ref} is still on its way and no delivery has been attempted, "
        "so a redelivery cannot be booked. If another day suits you better, we can change its "
        "delivery date instead: just tell us which date."
    ),
    "refusal.redelivery_not_allowed.out_for_delivery": (
        "The parcel for {order_ref} is out for delivery today, so a redelivery cannot be "
        "booked yet. If you miss it, the driver leaves a notice and takes it back to the "
        "depot; you can then ask us for a redelivery."
    ),
    "refusal.redelivery_not_allowed.delivered": (
        "{order_ref} has already been delivered, so there is nothing to redeliver. If it has "
        "not reached you, just let us know and we will look into it."
    ),
    # --- Payments (h-pay): what the customer can do about a declined card or a double charge
    "reply.payment_failed_card_help": (
        "Please check the card number, the expiry date and the security code, and complete "
        "the 3-D Secure step if your card asks for it. If the card is still declined, your "
        "card issuer can tell you why, or you can choose another payment method."
    ),
    "handover.claim.charged_twice.help": (
        "If you paid by card, the authorization made when you ordered and the charge made "
        "when we shipped can both show on your statement for a while: your card issuer "
        "releases the authorization automatically within days to a few weeks, and you are "
        "only charged once."
    ),
}
