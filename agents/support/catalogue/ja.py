"""Every sentence and word a Japanese-speaking customer reads, keyed by stable ids.

The one place to change what a customer is told in Japanese: the offline model's replies and
questions, the words for the shop's codes, and the support domain's own messages (a lapsed
question, an approval taking longer). ``en.py`` holds the same keys with the same
placeholders (a test checks it); ``agents.support.catalogue.say`` fills them in. Dates, clock
times and yen amounts are formatted by code (``netshop.money``, the offline ``formatting``).
"""

from __future__ import annotations

from typing import Final

_REVIEWING_JA: Final = (
    "現在、担当スタッフが内容を確認しております。確認が済み次第、改めてご連絡いたします。"
)

MESSAGES: Final[dict[str, str]] = {
    # --- Replies: the greeting, the closing, and one paragraph per thing asked about
    "reply.greeting": (
        "お問い合わせいただき、誠にありがとうございます。NetShop カスタマーサポートでございます。"
    ),
    "reply.closing": (
        "ほかにご不明な点がございましたら、お気軽にお問い合わせください。"
        "今後ともNetShopをよろしくお願いいたします。"
    ),
    "reply.order_head": "{order_ref}（{placed}ご注文）の内容は以下のとおりです。",
    "reply.order_line": "・{name} × {quantity}点　{subtotal}",
    "reply.order_total": "合計 {total}、現在のステータスは「{status}」です。",
    "reply.order_refunded": "このうち{refunded}は返金済みです。",
    "reply.order_shipment": "お荷物の状況は「{status}」です。",
    "reply.order_shipment_dated": "お荷物の状況は「{status}」で、お届け予定日は{date}です。",
    "reply.orders_head": "お客様のご注文（新しい順）は以下のとおりです。",
    "reply.orders_line": "・{number}（{placed}ご注文）{total}　{status}",
    "reply.orders_more": "ほか{count}件のご注文がございます。",
    "reply.orders_none": "ご指定の条件に該当するご注文は見つかりませんでした。",
    "reply.ask_order_number": (
        "お調べするご注文を特定できませんでした。お手数ですが、ご注文番号"
        "（例: ORD-1234）をお知らせいただけますでしょうか。"
    ),
    "reply.track_fallback": (
        "現在、配送業者のシステムから最新の情報を取得できないため、当店の記録にある状況をお知らせいたします。"
    ),
    "reply.track_status": (
        "{order_ref}のお荷物（{carrier}、お問い合わせ番号 {tracking}）は、現在「{status}」です。"
    ),
    "reply.track_status_untracked": "{order_ref}のお荷物は、現在「{status}」です。",
    "reply.track_scheduled": "お届け予定日は{date}です。",
    "reply.track_event": "最終更新: {time}{place}。",
    "reply.track_event_status": "最新の状況: 「{status}」（{time}{place}）。",
    "reply.track_absent": (
        "再配達をご希望の場合は、ご希望の日付と時間帯をお知らせいただければ手配いたします。"
    ),
    "reply.track_open_case": (
        "このお荷物が届いていないとのご連絡を{date}にいただいております。担当者が配送業者に"
        "確認しておりますので、確認でき次第ご連絡いたします。"
    ),
    "reply.redelivery_booked": "{order_ref}のお荷物の再配達を、{date} {window}で手配いたしました。",
    "reply.date_changed": "{order_ref}のお届け日を、{previous}から{date}に変更いたしました。",
    "reply.date_changed_to": "{order_ref}のお届け日を、{date}に変更いたしました。",
    "reply.payment_authorized": (
        "{order_ref}のお支払い（{method}）は、現在{authorized}のお支払い枠の確保（与信）のみで、"
        "請求はまだ確定しておりません。"
    ),
    "reply.payment_captured": (
        "{order_ref}のお支払い（{method}）は、{captured}の決済が完了しております。"
    ),
    "reply.payment_partially_refunded": (
        "{order_ref}のお支払い（{method}）{captured}のうち、{refunded}を返金済みです。"
    ),
    "reply.payment_refunded": "{order_ref}のお支払い（{method}）は、{refunded}を全額返金済みです。",
    "reply.payment_refunded_open": "{order_ref}のお支払い（{method}）は、全額返金済みです。",
    "reply.payment_failed": (
        "{order_ref}のお支払い（{method}）は、決済が完了しておりません。"
        "お手数ですが、お支払い方法をご確認ください。"
    ),
    "reply.payment_voided": (
        "{order_ref}のお支払い（{method}）は、お支払い枠の確保（与信）が取り消されており、"
        "請求は発生しておりません。"
    ),
    "reply.payment_unknown": "{order_ref}のお支払い（{method}）の状況を確認いたしました。",
    "reply.coupon_issued": (
        "お詫びのしるしとして、次回のお買い物でご利用いただける{value}クーポンを発行いたしました。"
        "クーポンコード: {code}（有効期限: {expires}まで）"
    ),
    "reply.coupon_issued_open": (
        "お詫びのしるしとして、次回のお買い物でご利用いただける{value}クーポンを発行いたしました。"
        "クーポンコード: {code}"
    ),
    "reply.faq_answer": "{topic}について、ご案内いたします。\n{answer}",
    "reply.faq_none": (
        "申し訳ございませんが、お問い合わせの内容について、"
        "すぐにご案内できる情報が見つかりませんでした。"
    ),
    "reply.pending_refund": (
        "{order_ref}の返金（{amount}）のご依頼を承りました。現在、担当スタッフが内容を確認しております。"
        "確認が済み次第、改めてご連絡いたします。"
    ),
    "reply.pending_refund_open": (
        "{order_ref}の返金のご依頼を承りました。現在、担当スタッフが内容を確認しております。"
        "確認が済み次第、改めてご連絡いたします。"
    ),
    "reply.pending_capped": (
        "なお、返金できる金額はお支払いいただいた金額が上限となりますため、{amount}にてご依頼を承っております。"
    ),
    "reply.pending_cancel": (
        "{order_ref}のキャンセルのご依頼を承りました。現在、担当スタッフが内容を確認しております。"
        "確認が済み次第、改めてご連絡いたします。"
    ),
    "reply.refund_done": (
        "{order_ref}について、{amount}の返金手続きが完了いたしました。"
        "お支払い時と同じ方法で返金され、反映までに数日かかる場合がございます。"
    ),
    "reply.refund_done_open": (
        "{order_ref}について、返金手続きが完了いたしました。"
        "お支払い時と同じ方法で返金され、反映までに数日かかる場合がございます。"
    ),
    "reply.cancel_done": "{order_ref}のキャンセルが完了いたしました。",
    "reply.authorization_released": (
        "クレジットカードのお支払い枠の確保（与信）も解除いたしましたので、"
        "ご請求は発生いたしません。"
    ),
    "reply.declined": "誠に申し訳ございませんが、{target}はお受けすることができませんでした。",
    "reply.declined_reason": "理由: {reason}",
    "reply.taken_over": "{target}については、担当スタッフが直接対応いたします。",
    "reply.refused_at_execution": (
        "{target}は、お手続きの時点でご注文の状況が変わっていたため、完了できませんでした。"
    ),
    "reply.action_failed": (
        "{target}の処理中に問題が発生したため、お手続きを完了できませんでした。"
        "担当スタッフが確認のうえ、改めてご連絡いたします。"
    ),
    "reply.tool_error": (
        "{tool}は、システムの都合により現在お手続きできませんでした。"
        "恐れ入りますが、しばらくしてから改めてお問い合わせください。"
    ),
    "reply.not_checked": (
        "申し訳ございませんが、現在{labels}を確認することができませんでした。"
        "確認でき次第、改めてご連絡いたします。"
    ),
    "reply.ask_details": (
        "お問い合わせの内容を確認いたしました。恐れ入りますが、ご注文番号など、"
        "もう少し詳しい内容をお知らせいただけますでしょうか。"
    ),
    "reply.ask_details_named": (
        "{order_ref}についてのお問い合わせを確認いたしました。恐れ入りますが、"
        "どのようなご用件か、もう少し詳しくお知らせいただけますでしょうか。"
    ),
    "reply.handover": "担当スタッフにお引き継ぎいたしました。担当者より改めてご連絡いたします。",
    "reply.follow_up": "担当スタッフが内容を確認のうえ、改めてご連絡いたします。",
    "reply.held": "{tool}につきましては、担当スタッフが内容を確認のうえ、改めてご連絡いたします。",
    # --- Replies: returns, exchanges and item changes
    "reply.pending_return": (
        "{order_ref}の{items}の返品のご依頼を承りました（返金予定額 {amount}）。" + _REVIEWING_JA
    ),
    "reply.pending_exchange": (
        "{order_ref}の{item}を{variant}へ交換するご依頼を承りました。" + _REVIEWING_JA
    ),
    "reply.pending_item_change": (
        "{order_ref}のご注文内容の変更（{changes}）のご依頼を承りました"
        "（変更後の合計 {total}）。" + _REVIEWING_JA
    ),
    "reply.return_done": (
        "{order_ref}の{items}の返品を承り、{amount}の返金手続きが完了いたしました。"
        "お支払い時と同じ方法で返金され、反映までに数日かかる場合がございます。"
    ),
    "reply.send_back": "お手数ですが、お手元の商品を当店までご返送ください。",
    "reply.exchange_done": (
        "{order_ref}の{item}について、{variant}への交換を承り、交換品を発送いたしました"
        "（お問い合わせ番号 {tracking}）。"
    ),
    "reply.item_change_done": (
        "{order_ref}のご注文内容を変更いたしました（{changes}）。変更後の合計は{total}です。"
    ),
    "reply.authorization_lowered": (
        "クレジットカードのお支払い枠の確保（与信）も、変更後の金額に合わせて減額いたしました。"
    ),
    "reply.change_removed": "{name}を取り消し",
    "reply.change_lowered": "{name}を{quantity}点に変更",
    # --- Replies: the delivery address, refunds made and receipts
    "reply.address_changed": (
        "{order_ref}のお届け先を、「〒{postal_code} {prefecture}{address_line}」に"
        "変更いたしました。"
    ),
    "reply.refund_made": "{order_ref}について、{date}に{amount}の返金手続きが完了しております。",
    "reply.refund_made_more": "{order_ref}について、次の返金手続きが完了しております。",
    "reply.refund_line": "・{date}　{amount}",
    "reply.refund_where": (
        "返金はお支払い時と同じ方法で行われ、ご利用のカード会社などにより、"
        "反映までに日数がかかる場合がございます。"
    ),
    "reply.refund_none": "{order_ref}について、現在のところ返金のお手続きの記録はございません。",
    "reply.refund_waiting": (
        "{order_ref}の返金（{amount}）のご依頼は、現在担当スタッフが確認しております。"
        "確認が済み次第、改めてご連絡いたします。"
    ),
    "reply.receipt_issued": (
        "{order_ref}の領収書（領収書番号 {number}、宛名: {addressee}、金額 {amount}）を"
        "発行いたしました。"
    ),
    "reply.receipt_reissued": (
        "{order_ref}の領収書を再発行いたしました（領収書番号は前回と同じ {number}、"
        "宛名: {addressee}、金額 {amount}。「再発行」と記載しております）。"
    ),
    "reply.receipt_less_refunds": (
        "領収書の金額は、お支払いいただいた{paid}から返金済みの{refunded}を差し引いた額です。"
    ),
    "reply.receipt_where": (
        "ヘルプページのこのお問い合わせに表示される「領収書（PDF）」のリンクから"
        "ダウンロードいただけます。"
    ),
    # --- Refusals: why the shop said no, by the rule that refused
    "refusal.order_not_found": (
        "{order_ref}が見つかりませんでした。お手数ですが、ご注文番号をご確認のうえ、"
        "改めてお知らせください。"
    ),
    "refusal.order_not_cancellable": (
        "{order_ref}は現在キャンセルを承ることができない状態です。"
        "キャンセルは発送前のご注文に限り承っております。"
    ),
    "refusal.order_not_cancellable.cancelled": (
        "{order_ref}はすでにキャンセル済みとなっておりますので、"
        "改めてキャンセルのお手続きをいただく必要はございません。"
    ),
    "refusal.order_not_cancellable.shipped": (
        "{order_ref}はすでに発送済みのため、キャンセルを承ることができません。"
        "お届け後の返品をご希望の場合は、お知らせください。"
    ),
    "refusal.order_not_cancellable.delivered": (
        "{order_ref}はすでにお届け済みのため、キャンセルを承ることができません。"
        "返品をご希望の場合は、お知らせください。"
    ),
    "refusal.payment_not_captured": (
        "{order_ref}はお支払いが確定していないため、返金の対象となる金額がございません。"
    ),
    "refusal.refund_exceeds_captured": (
        "返金できる金額は、お支払いいただいた金額（返金済みの分を除く）が上限となります。"
    ),
    "refusal.nothing_to_refund": "{order_ref}には、返金できる金額が残っておりません。",
    "refusal.no_payment": "{order_ref}には、お支払いの記録がございません。",
    "refusal.no_shipment": (
        "{order_ref}はまだ発送前のため、お問い合わせ番号と配送状況はまだございません。"
    ),
    "refusal.shipment_not_found": (
        "ご指定のお問い合わせ番号のお荷物が見つかりませんでした。"
        "お手数ですが、番号をご確認ください。"
    ),
    "refusal.redelivery_not_allowed": (
        "再配達は、ご不在のため持ち戻りとなったお荷物に限り承っております。"
        "{order_ref}のお荷物は現在その状態ではないため、再配達を手配できませんでした。"
    ),
    "refusal.slot_out_of_range": (
        "再配達は翌日から{redelivery_days}日先までの日付で承っております。ご希望の日付は"
        "その期間外のため、手配できませんでした。お手数ですが、期間内の日付でお知らせください。"
    ),
    "refusal.invalid_slot_window": (
        "ご希望の時間帯は指定できませんでした。午前中(8〜12時)、12〜14時、14〜16時、"
        "16〜18時、18〜21時の中からお選びください。"
    ),
    "refusal.date_change_not_allowed": (
        "お届け日の変更は、お荷物が配達に出る前までに限り承っているため、"
        "{order_ref}のお届け日は変更できませんでした。"
    ),
    "refusal.date_out_of_range": (
        "お届け日は、本日から当初のお届け予定日の{date_change_days}日後までの間で変更を"
        "承っております。ご希望の日付はその期間外のため、変更できませんでした。"
        "お手数ですが、期間内の日付でお知らせください。"
    ),
    "refusal.date_unchanged": (
        "ご希望の日付は、現在のお届け予定日と同じため、変更の必要はございません。"
        "別の日をご希望の場合は、その日付をお知らせください。"
    ),
    "refusal.coupon_already_issued": (
        "今回のお問い合わせについては、すでにクーポンを発行しております。"
    ),
    "refusal.coupon_limit_reached": (
        "お詫びクーポンは、お一人様につき一定の期間内にお送りできる枚数を定めております。"
        "すでにその枚数をお送りしているため、今回はクーポンを発行いたしかねます。"
    ),
    "refusal.coupon_no_cause": (
        "お詫びクーポンは、配送の遅れや再配達の不履行など、当店側の不手際でご迷惑をおかけした"
        "場合にお送りしております。今回はそのような事象が確認できなかったため、"
        "誠に恐れ入りますが、クーポンを発行いたしかねます。"
    ),
    "refusal.coupon_expired_not_reissued": (
        "誠に恐れ入りますが、有効期限の切れたクーポンの再発行は承っておりません。"
    ),
    "refusal.coupon_cause_compensated": (
        "この件につきましては、すでにお詫びのクーポンをお送りしております。"
    ),
    "refusal.address_change_not_allowed": (
        "{order_ref}のお荷物はすでに配送業者にお渡ししているため、お届け先を変更できませんでした。"
        "お届け先の変更は、出荷前のお荷物に限り承っております。"
    ),
    "refusal.address_change_not_allowed.delivered": (
        "{order_ref}はすでにお届け済みのため、お届け先を変更することはできません。"
    ),
    "refusal.address_change_not_allowed.cancelled": (
        "{order_ref}はキャンセル済みのため、お届け先の変更は承れません。"
    ),
    "refusal.invalid_address": (
        "いただいたご住所を確認できませんでした。お手数ですが、郵便番号（例: 〒104-0061）、"
        "都道府県、市区町村・番地まで含めて、改めてお知らせください。"
    ),
    "refusal.receipt_not_paid": (
        "{order_ref}はお支払いが確定していないため、領収書を発行できませんでした。"
        "お支払いの確定後に、改めてお申し付けください。"
    ),
    "refusal.receipt_fully_refunded": (
        "{order_ref}はお支払いいただいた代金を全額返金済みのため、領収書の対象となるお支払いが"
        "ございません。そのため、領収書は発行しておりません。"
    ),
    "refusal.receipt_addressee_invalid": (
        "ご指定の宛名は、お名前として領収書に記載できないため、領収書を発行できませんでした。"
        "宛名には個人名または会社名（例: 株式会社サンプル 御中）のみを記載できます。"
        "お手数ですが、お名前のみを改めてお知らせください。"
    ),
    "refusal.receipt_addressee_invalid.amount": (
        "ご指定の宛名に金額・通貨記号・税などの語句が含まれているため、領収書を発行できません"
        "でした。宛名には個人名または会社名のみを記載できます。お手数ですが、"
        "お名前のみを改めてお知らせください。"
    ),
    "refusal.receipt_addressee_invalid.control": (
        "ご指定の宛名に、印字できない制御文字（文字の向きを変える記号など）が含まれているため、"
        "領収書を発行できませんでした。お手数ですが、個人名または会社名のみを改めて"
        "お知らせください。"
    ),
    "refusal.receipt_addressee_invalid.too_long": (
        "ご指定の宛名が{addressee_chars}文字を超えているため、領収書を発行できませんでした。"
        "お手数ですが、{addressee_chars}文字以内の個人名または会社名のみを改めてお知らせください。"
    ),
    "refusal.generic": "{tool}については、現在の状況ではお手続きを承ることができませんでした。",
    "refusal.order_not_delivered": (
        "{order_ref}はまだお届け前のため、返品・交換を承ることができません。"
        "商品がお手元に届いてから改めてお知らせください。"
    ),
    "refusal.return_window_passed": (
        "誠に恐れ入りますが、返品は商品到着後{return_days}日以内に限り承っており、"
        "{order_ref}はその期間を過ぎているため、返品をお受けできません。"
    ),
    "refusal.already_returned": "ご指定の商品は、すでに返品を承っております。",
    "refusal.item_not_returnable": (
        "誠に恐れ入りますが、食品・名入れなどのオーダー商品は、不良品を除き返品をお受けできません。"
    ),
    "refusal.return_amount_exceeds_items": "返金額は、返品される商品の金額が上限となります。",
    "refusal.item_not_in_order": (
        "ご指定の商品が{order_ref}の中に見つかりませんでした。お手数ですが、商品名をご確認ください。"
    ),
    "refusal.items_required": "恐れ入りますが、対象の商品をお知らせいただけますでしょうか。",
    "refusal.exchange_window_passed": (
        "誠に恐れ入りますが、サイズ交換は商品到着後{exchange_days}日以内に限り承っており、"
        "{order_ref}はその期間を過ぎているため、交換をお受けできません。"
    ),
    "refusal.no_such_variant": "ご希望のサイズ・色は、この商品の取り扱いがございません。",
    "refusal.variant_out_of_stock": (
        "誠に恐れ入りますが、ご希望のサイズ・色は現在在庫がございません。"
        "在庫がない場合は返金にて対応いたしますので、ご希望の際はお知らせください。"
    ),
    "refusal.already_exchanged": (
        "サイズ交換は1商品につき1回までとなっており、この商品はすでに交換済みです。"
    ),
    "refusal.order_not_modifiable": (
        "ご注文確定後の商品の変更は承っておりません。{order_ref}はすでに確定しているため、"
        "内容を変更できませんでした。"
    ),
    "refusal.quantity_not_lowered": (
        "ご注文後の商品の追加・数量の増加は承っておりません。恐れ入りますが、"
        "追加の商品は新しくご注文ください。"
    ),
    "refusal.order_would_be_empty": (
        "すべての商品を取り消す場合は、ご注文のキャンセルとなります。"
        "キャンセルをご希望の際はお知らせください。"
    ),
    # --- Questions to the customer
    "question.thanks": "お問い合わせいただき、ありがとうございます。",
    "question.which_order": "どちらのご注文についてのお問い合わせでしょうか。",
    "question.which_order_about": "「{about}」とのこと、どちらのご注文についてでしょうか。",
    "question.which_item": "どちらの商品についてのお問い合わせでしょうか。",
    "question.which_date": "ご希望の日付をお知らせください（例: 12月5日）。",
    "question.which_time_window": (
        "ご希望の時間帯をお知らせください（08-12、12-14、14-16、16-18、18-21）。"
    ),
    "question.which_address": (
        "新しいお届け先のご住所を、郵便番号（例: 〒104-0061）、都道府県、"
        "市区町村・番地・建物名まで、お知らせいただけますでしょうか。"
    ),
    "question.which_other": "恐れ入りますが、もう少し詳しくお聞かせいただけますでしょうか。",
    "question.which_request": (
        "ご不便をおかけして申し訳ございません。お力になれるよう、どのようなことでお困りか、"
        "ご注文に関することでしたら対象のご注文もあわせてお知らせいただけますでしょうか。"
        "配送状況、返品・返金、キャンセル、交換、お支払い、領収書などについてご案内できます。"
    ),
    "question.confirm": (
        "念のため確認させてください。{action}をご希望ということでよろしいでしょうか。"
        "よろしければ「はい」と、違う場合はご用件をもう少し詳しくお聞かせください。"
    ),
    "question.option": "{index}. {value}（{label}）",
    "question.option_bare": "{index}. {value}",
    "question.answer_how_order": "番号（{numbers}）または注文番号でお答えください。",
    "question.answer_how": "番号（{numbers}）でお答えください。",
    # --- Hand-overs: a person follows up, and why
    "handover.claim": (
        "{order_ref}は配送業者の記録では配達済みとなっておりますが、お手元に届いていないとのこと、"
        "担当スタッフが配送業者に確認のうえ、改めてご連絡いたします。"
    ),
    "handover.claim.charged_twice": (
        "当店の記録では{order_ref}のご請求は1回分のみとなっておりますが、二重に請求されているとのこと、"
        "担当スタッフが決済会社に確認のうえ、改めてご連絡いたします。"
    ),
    "handover.claim.damaged_not_delivered": (
        "当店の記録では{order_ref}はまだお届け前となっておりますが、商品が破損していたとのこと、"
        "担当スタッフが確認のうえ、改めてご連絡いたします。"
    ),
    "handover.claim.item_not_in_order": (
        "お知らせいただいた商品は{order_ref}のご注文内容に見当たりませんでした。"
        "担当スタッフが確認のうえ、改めてご連絡いたします。"
    ),
    "handover.instructions_to_system": (
        "申し訳ございませんが、メッセージ内のシステムへの指示や特別な権限のお申し出にもとづいて"
        "お手続きを行うことはできません。ご依頼の内容は担当スタッフが確認のうえ、改めてご連絡いたします。"
    ),
    "handover.unsupported.address_change": (
        "お届け先住所の変更は担当スタッフが承ります。内容を確認のうえ、改めてご連絡いたします。"
    ),
    "handover.unsupported.exchange": (
        "商品の交換（サイズ・色の変更）は担当スタッフが承ります。"
        "内容を確認のうえ、改めてご連絡いたします。"
    ),
    "handover.unsupported.return_item": (
        "商品のご返送は担当スタッフがご案内いたします。内容を確認のうえ、改めてご連絡いたします。"
    ),
    # --- Words for the shop's codes: an order's status (netshop.models.OrderStatus)
    "order_status.pending": "ご注文受付",
    "order_status.confirmed": "ご注文確定",
    "order_status.shipped": "発送済み",
    "order_status.delivered": "お届け済み",
    "order_status.cancelled": "キャンセル済み",
    # --- A parcel's status (ShipmentStatus)
    "shipment_status.preparing": "出荷準備中",
    "shipment_status.in_transit": "配送中",
    "shipment_status.out_for_delivery": "配達中",
    "shipment_status.delivered": "配達完了",
    "shipment_status.absent_returned": "ご不在のため持ち戻り",
    # --- A payment method (PaymentMethod)
    "payment_method.card": "クレジットカード",
    "payment_method.konbini": "コンビニ払い",
    "payment_method.bank_transfer": "銀行振込",
    "payment_method.cod": "代金引換",
    # --- What a specialist checks, for the honest "could not check ..." sentence
    "agent.order": "ご注文情報",
    "agent.shipping": "配送状況",
    "agent.payment": "決済状況",
    "agent.faq": "よくあるご質問（FAQ）",
    # --- A tool or skill, as the object of a sentence ("... could not be processed")
    "tool.search_orders": "ご注文の検索",
    "tool.get_order_details": "ご注文内容の確認",
    "tool.cancel_order": "ご注文のキャンセル",
    "tool.track_shipment": "配送状況の確認",
    "tool.arrange_redelivery": "再配達のお手続き",
    "tool.change_delivery_date": "お届け日の変更",
    "tool.process_refund": "返金のお手続き",
    "tool.check_payment_status": "お支払い状況の確認",
    "tool.apply_coupon": "クーポンの発行",
    "tool.change_shipping_address": "お届け先の変更",
    "tool.refund_status": "返金状況の確認",
    "tool.issue_receipt": "領収書の発行",
    "tool.search_faq": "ご質問への回答",
    "tool.answer_general_question": "ご質問への回答",
    "tool.return_items": "返品のお手続き",
    "tool.exchange_items": "商品交換のお手続き",
    "tool.modify_order_items": "ご注文内容の変更",
    # --- An approval-gated action, as the object of a sentence ("{target} is being reviewed")
    "action.process_refund": "{order_ref}の返金",
    "action.cancel_order": "{order_ref}のキャンセル",
    "action.return_items": "{order_ref}の返品",
    "action.exchange_items": "{order_ref}の商品交換",
    "action.modify_order_items": "{order_ref}のご注文内容の変更",
    # --- Neutral words for a code without its own: never the code itself
    "fallback.status": "確認中",
    "fallback.method": "ご指定の方法",
    "fallback.carrier": "配送業者",
    "fallback.tool": "お手続き",
    # --- What a help article is about, by its category (ArticleCategory)
    "faq_topic.returns": "返品・交換・返金",
    "faq_topic.delivery": "配送",
    "faq_topic.payment": "お支払い",
    "faq_topic.account": "アカウント",
    "faq_topic.coupons": "クーポン",
    "faq_topic.orders": "ご注文",
    "faq_topic.other": "お問い合わせの件",
    # --- What a question may quote of the request: the offline model's reasons, in words
    "question.about.parcel_not_delivered": "お荷物が届いていない",
    "question.about.damaged_item": "商品の破損",
    "question.about.wrong_item": "商品の間違い",
    "question.about.charged_twice": "二重請求",
    # --- How a sentence names things: orders, items, delivery windows, lists
    "order.named": "ご注文 {number}",
    "order.unnamed": "ご指定のご注文",
    "option.more": "ほか",
    "option.placed": "{date}ご注文",
    "window.morning": "午前中(8〜12時)",
    "window.between": "{start}〜{end}時",
    "list.and": "{head}・{last}",
    "list.and_separator": "・",
    "list.or": "{head}、{last}",
    "list.comma": "、",
    "reply.coupon_value": "{value}分の",
    "reply.track_place": "（{place}）",
    "reply.quoted_reason": "「{words}」",
    "reply.item": "「{name}」",
    "reply.items_of": "「{name}」{quantity}点",
    # --- The support domain's own messages to the customer
    "conversation.lapsed": (
        "ご返信が確認できなかったため、このお問い合わせはいったん終了させていただきます。"
        "引き続きお手伝いが必要な場合は、こちらにご返信いただければ続きから対応いたします。"
    ),
    "run.crashed": (
        "申し訳ございません。当社システムの不具合により、ただいまお問い合わせにお答えできません"
        "でした。担当者に引き継ぎましたので、こちらで改めてご連絡いたします。"
    ),
    "escalation.overdue": (
        "お待たせしており申し訳ございません。担当者がまだ確認しており、予定より少し"
        "お時間をいただいております。確認が済み次第、こちらでご連絡いたします。"
    ),
    # --- The receipt (領収書) as a PDF: a Japanese form, issued in Japanese to every customer
    "receipt.title": "領収書",
    "receipt.subtitle": "RECEIPT",
    "receipt.document_title": "領収書 {number}",
    "receipt.reissued": "【再発行】",
    "receipt.issued_on": "発行日 {year}年{month}月{day}日",
    "receipt.addressee": "{name} 様",
    # A name the customer wrote with its honorific (御中, 様, 殿) takes no second one.
    "receipt.addressee_as_written": "{name}",
    "receipt.amount": "金額\u3000{amount}-",
    "receipt.purpose": "但し\u3000品代として",
    "receipt.order": "ご注文番号\u3000{number}",
    "receipt.received": "上記正に領収いたしました。",
    # --- Shipping (issue 24): a parcel's refusals by the parcel's state, with the way out
    "refusal.date_change_not_allowed.out_for_delivery": (
        "{order_ref}のお荷物は本日すでに配達に出ているため、お届け日を変更できません。"
        "ご不在の場合は不在票が投函され、お荷物は営業所に持ち戻られますので、その後に"
        "ご都合のよい日時で再配達をお申し付けください。"
    ),
    "refusal.date_change_not_allowed.absent_returned": (
        "{order_ref}のお荷物はご不在のため営業所に持ち戻られており、お届け日の変更は"
        "できませんが、再配達を手配できます。{redelivery_days}日以内のご希望の日付と時間帯(午前中、12〜14時、"
        "14〜16時、16〜18時、18〜21時)をお知らせください。"
    ),
    "refusal.date_change_not_allowed.delivered": (
        "{order_ref}はすでにお届け済みのため、お届け日を変更できません。"
    ),
    "refusal.redelivery_not_allowed.preparing": (
        "{order_ref}のお荷物はまだ発送前のため、再配達の手配はできません。"
        "別の日をご希望でしたら、お届け日の変更を承りますので、ご希望の日付をお知らせください。"
    ),
    "refusal.redelivery_not_allowed.in_transit": (
        "{order_ref}のお荷物はまだ配送の途中で、配達にうかがっていないため、再配達の手配は"
        "できません。別の日をご希望でしたら、お届け日の変更を承りますので、ご希望の日付を"
        "お知らせください。"
    ),
    "refusal.redelivery_not_allowed.out_for_delivery": (
        "{order_ref}のお荷物は本日配達に出ているため、まだ再配達の手配はできません。"
        "受け取れなかった場合は不在票が投函され営業所に持ち戻られますので、その後に"
        "再配達をお申し付けください。"
    ),
    "refusal.redelivery_not_allowed.delivered": (
        "{order_ref}はすでにお届け済みのため、再配達の必要はございません。"
        "お手元に届いていない場合は、お知らせいただければお調べいたします。"
    ),
    # --- Payments (h-pay): what the customer can do about a declined card or a double charge
    "reply.payment_failed_card_help": (
        "カード番号・有効期限・セキュリティコードをご確認のうえ、3Dセキュア（本人認証）が"
        "表示された場合は認証を完了してください。それでもご利用いただけない場合は、"
        "カード会社へお問い合わせいただくか、別のお支払い方法をご利用ください。"
    ),
    "handover.claim.charged_twice.help": (
        "なお、カードでお支払いの場合、ご注文時の与信（オーソリ）と発送時の売上確定が一時的に"
        "両方明細に表示されることがございます。与信はカード会社により数日〜数週間で自動的に"
        "解除され、実際のご請求は1回のみです。"
    ),
}
