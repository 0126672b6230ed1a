"""What a customer's words are about, as topic names shared by every article and question.

A general lexicon, written for how customers speak in Japanese and English, not for any
article's wording: the concepts are the topic tags of ``netshop.knowledge.tags``, so a
question and an article meet on a concept even when they share no word (a parcel "handed to
a neighbour" is ``not_received``; 「プレゼント用に包んで」 is ``gift_wrapping``). Pure.
"""

from __future__ import annotations

import re
from typing import Final

from netshop.knowledge.tokens import normalized

# concept -> the words that name it, Japanese and English (regular expressions, lowercase).
LEXICON: Final[dict[str, tuple[str, ...]]] = {
    "return_policy": (
        r"返品|返送|送り返|返却|手放|気に入ら|イメージと違|思っていたのと違",
        r"\breturn(?:s|ed|ing)?\b|send (?:it |them |something |this )?back|ship (?:it |them )?back"
        r"|changed? my mind|money back|don'?t (?:like|want) (?:it|them)",
    ),
    "damaged": (
        r"壊れ|破損|割れ|ヒビ|ひび|欠け|傷|汚れ|不良|故障|動かな|つかな|点かな|凹",
        r"\bbroken\b|\bbreak|damag|defect|crack|chipped|faulty|\btorn\b|shatter|smash|crush"
        r"|scratch|dent|(?:does|did|do)(?: no|n'?)t (?:work|turn on|switch on|start)"
        r"|stopped working",
    ),
    "refund_timing": (
        r"返金|お金.{0,6}(?:戻|返)|払い戻",
        r"\brefund|reimburs|money.{0,12}(?:back|returned)|get (?:my )?money|credited|paid back",
    ),
    "exchange": (
        r"交換|取り替|取替|替えて|かえて|サイズ違|色違|サイズ.{0,8}(?:小さ|大き|合わ)",
        r"exchang|\bswap|\btrade\b|different (?:size|colou?r)|another (?:size|colou?r)"
        r"|too (?:small|big|large|tight|loose)|(?:does|did)(?: no|n'?)t fit",
    ),
    "non_returnable": (
        r"返品でき(?:ない|ません)|返品不可|食品|お茶|名入れ|刻印|セール品|開封",
        r"non-?returnable|can'?t (?:be )?return|cannot (?:be )?return|engrav|personali[sz]"
        r"|final sale|\bfood\b|\btea\b|opened|refundable",
    ),
    "delivery_time": (
        r"何日|いつ(?:頃)?(?:届|着|来)|届くまで|到着まで|日数|手元に|最短",
        r"how long|when will (?:it|my order|they|the order) (?:arrive|come|get here)|arrive"
        r"|delivery time|how many days|how soon",
    ),
    "shipping_fee": (
        r"送料|配送料|運賃|配送費|送料無料|タダ|無料",
        r"shipping (?:fee|cost|charge|price)|postage|delivery (?:fee|cost|charge)"
        r"|free (?:shipping|delivery)|cost to (?:ship|send|deliver)"
        r"|how much (?:is|does) (?:shipping|delivery)",
    ),
    "tracking": (
        r"追跡|どこにある|どこまで|配送状況|荷物の状況|今どこ|いまどこ|問い合わせ番号",
        r"\btrack|where is (?:my|the) (?:parcel|package|order|shipment)|shipment status"
        r"|follow (?:my|the) (?:shipment|parcel|package)|right now",
    ),
    "delivery_date": (
        r"日時指定|日付指定|時間帯|届く日|お届け日|配達日|指定|午前|午後|夜|土曜|日曜|週末",
        r"choose (?:a |the )?(?:day|date|time)|pick (?:a |the |which )?(?:day|date|time)"
        r"|delivery (?:date|day|time|slot|window)|evening|morning|weekend|saturday|sunday"
        r"|which day",
    ),
    "change_delivery_date": (
        r"(?:日|日付|日程|配達|お届け).{0,10}(?:変更|ずら|延期|遅ら|後ろ|変え)|延期|発送後|発送された",
        r"postpone|reschedul|\bdelay|later date|change (?:the )?(?:delivery )?date|come later"
        r"|will be away|already (?:been )?shipped|on its way|\baway\b",
    ),
    "missed_delivery": (
        r"不在|再配達|留守|受け取れな|受け取り損|いなかった",
        r"missed (?:the |my )?deliver|redeliver|nobody (?:was )?(?:at )?home|not (?:at )?home"
        r"|while i was out|was out|tried to deliver|attempted delivery|delivery notice",
    ),
    "overseas_shipping": (
        r"海外|国外|外国|アメリカ|中国|台湾|韓国|ヨーロッパ|イギリス|カナダ|オーストラリア",
        r"oversea|internation|abroad|outside (?:of )?japan|other countr|\b(?:to|in) (?:the )?"
        r"(?:us|usa|uk|canada|australia|europe|america|china|korea|taiwan|france|germany)\b",
    ),
    "not_received": (
        r"配達(?:済|完了)|届いていな|届いてな|受け取っていな|見当たら|手元にな|玄関にも|盗",
        r"(?:says|shows|marked|showing) (?:as )?delivered|never (?:got|received|arrived)"
        r"|(?:did|have|has)(?: no|n'?)t (?:get|got|receive|arrive)|nothing (?:at|on) (?:my|the)"
        r"|missing|\blost\b|stolen|handed (?:over|to)",
    ),
    "payment_methods": (
        r"支払い方法|支払方法|払い方|決済方法|使える(?:カード|支払)|paypay|ペイペイ|電子マネー|後払い",
        r"payment (?:method|option)|ways? (?:i can |to )?pay|how (?:can|do) i pay|pay with"
        r"|accept|apple ?pay|google ?pay|paypal|\btake\b.{0,20}\bpay",
    ),
    "konbini_payment": (
        r"コンビニ|セブン|ローソン|ファミマ|ファミリーマート|払込票",
        r"konbini|convenience store|7-?eleven|seven.?eleven|lawson|family ?mart",
    ),
    "cash_on_delivery": (
        r"代引|代金引換|着払い|受け取(?:る|り)(?:とき|時).{0,10}(?:現金|払)|現金",
        r"cash on delivery|\bcod\b|pay (?:the )?(?:driver|courier)|\bcash\b|pay on delivery",
    ),
    "card_charge_timing": (
        r"(?:いつ|時点).{0,12}(?:請求|引き落と|課金|決済)|引き落とし.{0,6}いつ|与信|オーソリ",
        r"when (?:is|will|does) (?:my )?(?:card|money).{0,20}(?:charged|debited|taken|leave)"
        r"|when.{0,20}charged|authori[sz]ation|pre-?auth|\bhold\b",
    ),
    "double_charge": (
        r"二重|2重|二回|2回|重複|同じ金額.{0,6}(?:2|二)|二度",
        r"twice|two (?:identical )?(?:charges|payments|transactions)|double|duplicate"
        r"|charged (?:me )?two|billed two|identical transactions",
    ),
    "payment_failed": (
        r"決済.{0,6}(?:でき|通ら|失敗|エラー)|カード.{0,6}(?:使えな|通らな|通りませ|はじかれ|弾かれ)"
        r"|エラー|買えな|購入できな",
        r"declin|payment (?:failed|error|didn'?t go through)"
        r"|(?:card|payment).{0,20}(?:rejected|refused)"
        r"|checkout error|\berror\b|won'?t let me (?:buy|pay|check ?out)|can'?t (?:pay|check ?out)",
    ),
    "bank_transfer": (
        r"銀行振込|振込|振り込|口座番号|振込先",
        r"bank transfer|\bwire\b|transfer (?:the )?money|bank account.{0,20}(?:pay|send)"
        r"|which (?:bank )?account",
    ),
    "password": (
        r"パスワード|ログインでき|ログイン出来|サインインでき|暗証|パス忘",
        r"password|log ?in|sign ?in|locked out|reset my",
    ),
    "email_change": (
        r"メールアドレス.{0,10}(?:変更|変え|新し)|アドレス変更|登録メール",
        r"(?:change|update|new).{0,20}e-?mail|e-?mail (?:address )?change",
    ),
    "address_change": (
        r"住所.{0,10}(?:変更|変え|間違)|引っ越|引越|転居|送り先|届け先|お届け先",
        r"\bmoved\b|moving house|new address|change (?:my |the )?(?:delivery |shipping )?address"
        r"|wrong address|update where",
    ),
    "close_account": (
        r"退会|アカウント.{0,6}(?:削除|消|解約)|メルマガ|メールマガジン|宣伝メール|配信停止|広告メール",
        r"close (?:my )?account|delete (?:my )?account|remove my account|unsubscrib|newsletter"
        r"|marketing e-?mail|promotional e-?mail|stop sending",
    ),
    "guest_checkout": (
        r"会員登録(?:せず|しない|なし)|会員にならな|ゲスト|登録(?:せず|しない|なし)",
        r"guest|without (?:an )?account|sign ?up|register|have to (?:create|make) an account",
    ),
    "coupon_use": (
        r"クーポン|割引コード|プロモーションコード|クーポンコード|使い方",
        r"coupon|promo(?:tion(?:al)?)? code|discount code|voucher",
    ),
    "coupon_not_applied": (
        r"クーポン.{0,12}(?:使えな|使えませ|適用されな|反映されな|値段が下がらな|エラー|無効)"
        r"|(?:割引|値引).{0,8}(?:されな|効かな)",
        r"(?:coupon|code|voucher|discount).{0,30}(?:invalid|doesn'?t work|not work|won'?t work"
        r"|not (?:applied|accepted)|rejected|error|expired)",
    ),
    "apology_coupon": (
        r"お詫び|おわび|謝罪|補償",
        r"apolog|compensat|sorry|something goes wrong|make up for",
    ),
    "order_cancellation": (
        r"キャンセル|取り消|取消|注文.{0,6}(?:やめ|止め)|やめることは|やめたい",
        r"cancel|call (?:it )?off|by mistake|ordered (?:the )?wrong|undo (?:my )?order",
    ),
    "change_order": (
        r"注文.{0,10}(?:変更|変え|追加|数量|増や|減ら)|(?:追加|数を増|数量).{0,10}(?:注文|したい|でき)",
        r"change (?:my |the )?order|modify|add (?:another |an |one more )?item|quantity"
        r"|add .{0,20}to (?:an |my )?order|already placed",
    ),
    "order_confirmation": (
        r"確認メール|注文メール|(?:メール|連絡).{0,8}(?:来な|届かな|こない)",
        r"confirmation (?:e-?mail|mail)"
        r"|(?:never|didn'?t|haven'?t).{0,12}(?:got|get|receive).{0,12}e-?mail"
        r"|no e-?mail",
    ),
    "order_status": (
        r"ステータス|注文状況|保留中|処理中|状態.{0,6}意味",
        r"status|\bpending\b|what does .{0,20} mean|processing",
    ),
    "restock": (
        r"再入荷|在庫切れ|品切れ|売り切れ|入荷",
        r"restock|back in stock|sold out|out of stock|available again|come back",
    ),
    "gift_wrapping": (
        r"ラッピング|包装|包んで|のし|熨斗|ギフト|プレゼント用|贈り物|メッセージカード",
        r"gift ?wrap|\bwrap|present (?:packaging|wrapping)|gift box|message card|\bnoshi\b",
    ),
    "gift_price_hidden": (
        r"金額.{0,10}(?:わから|分から|見え|載せ|記載)|値段.{0,10}(?:わから|分から|見え|載せ)"
        r"|納品書|贈り先|別の住所.{0,6}送",
        r"(?:without|hide|not (?:show|include)|don'?t (?:show|include)).{0,20}(?:price|amount)"
        r"|packing slip|as a (?:present|gift)|send (?:it )?(?:directly )?to (?:my )?"
        r"(?:mother|mom|father|dad|friend|sister|brother)",
    ),
    "invoice": (
        r"領収書|請求書|インボイス|適格請求書|経費|宛名",
        r"receipt|invoice|expenses?\b|tax (?:document|form)|bill (?:for|to) (?:my )?company",
    ),
    "support_hours": (
        r"営業時間|受付時間|問い合わせ窓口|電話|何時から|何時まで|窓口",
        r"support hours|opening (?:hours|times)|phone|call (?:you|someone)|reach (?:a |someone|you)"
        r"|business hours|what time",
    ),
}

_COMPILED: Final = {
    concept: re.compile("|".join(f"(?:{cue})" for cue in cues)) for concept, cues in LEXICON.items()
}


def concepts_in(text: str) -> frozenset[str]:
    """The concepts ``text`` names."""
    folded = normalized(text)
    return frozenset(concept for concept, cue in _COMPILED.items() if cue.search(folded))
