"""The demo FAQ: the same policies in Japanese and English, one pair per topic.

The numbers here (14 days, ¥5,000, 08-12 ...) are the demo shop's policy and match the rules
the services enforce, so an answer taken from the FAQ never contradicts what support can do.
The coupon rules (a cause on record, one per inquiry, one per customer in 30 days, ¥1,000,
90 days, no reissue) are the defaults of ``netshop.services.coupons``.
"""

from __future__ import annotations

from typing import NamedTuple


class FaqSpec(NamedTuple):
    category: str
    language: str
    question: str
    answer: str
    keywords: str


def _pair(category: str, ja: tuple[str, str, str], en: tuple[str, str, str]) -> list[FaqSpec]:
    return [FaqSpec(category, "ja", *ja), FaqSpec(category, "en", *en)]


_RETURNS = [
    *_pair(
        "returns",
        (
            "返品はできますか？返品期限は何日ですか？",
            "商品到着後14日以内で、未使用・タグ付きの商品であれば返品を承ります。"
            "マイページの注文履歴から返品を申請してください。お客様都合の返品は返送料をご負担ください。",
            "返品 返品期限 14日 返品ポリシー 未使用",
        ),
        (
            "Can I return an item? How many days do I have?",
            "Unused items with their tags can be returned within 14 days of delivery. Request the "
            "return from your order history in My Page. For a change of mind, the return "
            "shipping is at your expense.",
            "return returns policy 14 days deadline unused",
        ),
    ),
    *_pair(
        "returns",
        (
            "届いた商品が破損・不良品でした。",
            "大変申し訳ございません。商品到着後30日以内に、注文番号と破損箇所の写真を添えてご連絡ください。"
            "送料当社負担で交換または全額返金いたします。",
            "破損 不良品 初期不良 壊れていた 交換 返金",
        ),
        (
            "My item arrived damaged or defective.",
            "We are very sorry. Contact us within 30 days of delivery with your order number and "
            "a photo of the damage. We will replace the item or refund it in full, and we pay "
            "the shipping both ways.",
            "damaged defective broken faulty replacement refund",
        ),
    ),
    *_pair(
        "returns",
        (
            "返金はいつ頃されますか？",
            "返品商品の到着確認後、3営業日以内に返金手続きをいたします。クレジットカードの場合は"
            "カード会社により1〜2回後のご請求で相殺されます。コンビニ払い・銀行振込の場合は"
            "ご指定の口座へ7営業日以内にお振込みします。",
            "返金 いつ 返金時期 クレジットカード 口座",
        ),
        (
            "When will I get my refund?",
            "We process the refund within 3 business days of receiving the returned item. Card "
            "refunds appear on your statement within one or two billing cycles, depending on your "
            "card issuer. Konbini and bank-transfer payments are refunded to your bank account "
            "within 7 business days.",
            "refund when timing card statement bank account",
        ),
    ),
    *_pair(
        "returns",
        (
            "サイズ交換はできますか？",
            "浴衣・Tシャツなどサイズのある商品は、商品到着後14日以内・未着用であれば1回まで無料で"
            "サイズ交換いたします。在庫がない場合は返金となります。",
            "サイズ交換 交換 サイズ 浴衣 Tシャツ",
        ),
        (
            "Can I exchange an item for a different size?",
            "Items sold in sizes, such as yukata and T-shirts, can be exchanged once for free "
            "within 14 days of delivery if unworn. If the size is out of stock, we refund you "
            "instead.",
            "exchange size swap yukata t-shirt",
        ),
    ),
    *_pair(
        "returns",
        (
            "返品できない商品はありますか？",
            "食品・開封済みのお茶、名入れなどのオーダー商品、セール最終価格の商品は、不良品を除き"
            "返品をお受けできません。",
            "返品不可 食品 お茶 名入れ セール",
        ),
        (
            "Are there items I cannot return?",
            "Food, opened tea, personalised items such as engraved knives, and final-sale items "
            "cannot be returned unless they are defective.",
            "non-returnable food tea engraved personalised final sale",
        ),
    ),
]

_DELIVERY = [
    *_pair(
        "delivery",
        (
            "注文してから何日で届きますか？",
            "ご注文から1〜2営業日以内に発送します。発送後、本州・四国・九州へは1〜3日、北海道へは"
            "2〜4日、沖縄・離島へは3〜6日でお届けします。天候や交通事情により遅れる場合があります。",
            "配送日数 届く いつ 北海道 沖縄 離島 発送",
        ),
        (
            "How long does delivery take?",
            "We ship within 1-2 business days of your order. After shipping, delivery takes 1-3 "
            "days to Honshu, Shikoku and Kyushu, 2-4 days to Hokkaido, and 3-6 days to Okinawa "
            "and remote islands. Weather and traffic can cause delays.",
            "delivery time how long days Hokkaido Okinawa islands shipping",
        ),
    ),
    *_pair(
        "delivery",
        (
            "送料はいくらですか？",
            "全国一律550円（税込）、5,000円以上のご注文で送料無料です。沖縄・離島へは別途1,100円を"
            "頂戴します。",
            "送料 無料 5000円 沖縄 離島",
        ),
        (
            "How much is shipping?",
            "Shipping is a flat ¥550 (tax included) anywhere in Japan, and free on orders of "
            "¥5,000 or more. Okinawa and remote islands add ¥1,100.",
            "shipping fee cost free 5000 Okinawa islands",
        ),
    ),
    *_pair(
        "delivery",
        (
            "荷物の配送状況を確認したい。",
            "発送完了メールに記載の送り状番号（例：4821-7730-1195）で、マイページまたはヤマト運輸の"
            "サイトから配送状況をご確認いただけます。",
            "配送状況 追跡 送り状番号 伝票番号 荷物 どこ",
        ),
        (
            "How can I track my package?",
            "Use the tracking number in your shipping confirmation e-mail (for example "
            "4821-7730-1195) in My Page or on the Yamato Transport website.",
            "track tracking number where package status",
        ),
    ),
    *_pair(
        "delivery",
        (
            "配達日時の指定はできますか？",
            "ご注文時に、ご注文日の3日後から14日後までの日付と、時間帯（08-12時、12-14時、14-16時、"
            "16-18時、18-21時）をご指定いただけます。",
            "日時指定 配達日 時間帯 指定",
        ),
        (
            "Can I choose a delivery date and time?",
            "At checkout you can choose a date from 3 to 14 days after your order and a time "
            "window: 08-12, 12-14, 14-16, 16-18 or 18-21.",
            "delivery date time window choose schedule",
        ),
    ),
    *_pair(
        "delivery",
        (
            "発送後に配達日を変更できますか？",
            "配達に出る前（持ち出し前）であれば、当初のお届け予定日から14日以内の日付に変更できます。"
            "サポートまでご連絡ください。",
            "配達日変更 日付変更 お届け日 変更",
        ),
        (
            "Can I change the delivery date after shipping?",
            "Yes, as long as the package is not yet out for delivery, to any date within 14 days "
            "of the original delivery date. Please contact support.",
            "change delivery date reschedule postpone",
        ),
    ),
    *_pair(
        "delivery",
        (
            "不在で荷物を受け取れませんでした。再配達はどうすればよいですか？",
            "不在票の送り状番号で再配達をお申し込みいただくか、サポートにご連絡ください。再配達は"
            "7日以内の日付と時間帯から選べます。7日を過ぎると荷物は当社へ返送されます。",
            "不在 再配達 不在票 持ち戻り 受け取れなかった",
        ),
        (
            "I missed the delivery. How do I get it redelivered?",
            "Request a redelivery with the tracking number on the notice the driver left, or "
            "contact support. You can pick a date and time window within the next 7 days. "
            "After 7 days the package is returned to us.",
            "missed delivery redelivery not home notice redeliver",
        ),
    ),
    *_pair(
        "delivery",
        (
            "海外へ発送できますか？",
            "申し訳ございませんが、現在は日本国内への配送のみ承っております。",
            "海外発送 海外 国外",
        ),
        (
            "Do you ship overseas?",
            "Sorry, we currently deliver within Japan only.",
            "overseas international abroad shipping",
        ),
    ),
    *_pair(
        "delivery",
        (
            "配達完了になっているのに荷物が届いていません。",
            "宅配ボックスやご家族の受け取りをご確認のうえ、配達完了から7日以内にサポートまでご連絡ください。"
            "運送会社に調査を依頼します。",
            "届いていない 配達完了 紛失 見つからない",
        ),
        (
            "My package says delivered but I don't have it.",
            "Please check your delivery box and with your household, then contact support within "
            "7 days of the delivery scan. We will open an investigation with the carrier.",
            "not received delivered missing lost",
        ),
    ),
]

_PAYMENT = [
    *_pair(
        "payment",
        (
            "支払い方法は何がありますか？",
            "クレジットカード（Visa・Mastercard・JCB・American Express・Diners）、コンビニ払い、"
            "銀行振込、代金引換がご利用いただけます。",
            "支払い方法 クレジットカード コンビニ 銀行振込 代引き",
        ),
        (
            "Which payment methods do you accept?",
            "Credit cards (Visa, Mastercard, JCB, American Express, Diners), konbini "
            "(convenience store) payment, bank transfer and cash on delivery.",
            "payment methods card konbini bank transfer cash on delivery",
        ),
    ),
    *_pair(
        "payment",
        (
            "コンビニ払いの方法を教えてください。",
            "ご注文後にメールでお送りする払込番号で、セブン-イレブン・ファミリーマート・ローソン・"
            "ミニストップにて3日以内にお支払いください。期限を過ぎるとご注文は自動キャンセルされます。"
            "手数料は無料です。",
            "コンビニ払い コンビニ 払込番号 期限 セブン ローソン ファミマ",
        ),
        (
            "How does konbini (convenience store) payment work?",
            "Pay within 3 days at 7-Eleven, FamilyMart, Lawson or Ministop with the payment "
            "number we e-mail you after your order. Unpaid orders are cancelled automatically "
            "after the deadline. There is no fee.",
            "konbini convenience store payment number deadline 7-Eleven Lawson FamilyMart",
        ),
    ),
    *_pair(
        "payment",
        (
            "代金引換の手数料はいくらですか？",
            "代金引換の手数料は330円（税込）です。お支払いは配達時に現金でドライバーへお渡しください。"
            "ご利用はご注文金額30万円までです。",
            "代引き 代金引換 手数料 現金",
        ),
        (
            "What does cash on delivery cost?",
            "Cash on delivery costs ¥330 (tax included). Pay the driver in cash at delivery. It is "
            "available for orders up to ¥300,000.",
            "cash on delivery cod fee",
        ),
    ),
    *_pair(
        "payment",
        (
            "クレジットカードはいつ請求されますか？",
            "ご注文時にカードの与信枠を確保（オーソリ）し、商品の発送時に売上確定します。発送前に"
            "キャンセルした場合は与信が解放され、請求は発生しません。",
            "請求 いつ オーソリ 与信 カード 引き落とし",
        ),
        (
            "When is my card charged?",
            "We authorize your card when you order and capture the payment when we ship. If you "
            "cancel before shipping, the authorization is released and you are not charged.",
            "card charged when authorization capture hold",
        ),
    ),
    *_pair(
        "payment",
        (
            "カード明細に請求が2回表示されています。",
            "ご注文時の与信（オーソリ）と発送時の売上確定が一時的に両方表示される場合があります。"
            "与信はカード会社により数日〜数週間で自動的に解除され、実際の請求は1回のみです。",
            "二重請求 2回 請求 明細 与信",
        ),
        (
            "I see two charges on my card statement.",
            "The authorization made at ordering and the capture made at shipping can both show for "
            "a while. Your card issuer releases the authorization automatically within days to a "
            "few weeks; you are only charged once.",
            "double charge twice charged statement authorization",
        ),
    ),
    *_pair(
        "payment",
        (
            "カード決済がエラーになりました。",
            "カード番号・有効期限・セキュリティコード・3Dセキュア認証をご確認ください。それでも"
            "ご利用いただけない場合は、カード会社へお問い合わせいただくか、別のお支払い方法をご利用ください。",
            "決済エラー カードエラー 使えない 3Dセキュア 決済失敗",
        ),
        (
            "My card payment failed.",
            "Check the card number, expiry date, security code and the 3-D Secure step. If it "
            "still fails, contact your card issuer or choose another payment method.",
            "payment failed card declined error 3-D Secure",
        ),
    ),
    *_pair(
        "payment",
        (
            "銀行振込の振込先と期限を教えてください。",
            "振込先口座はご注文確認メールに記載しています。ご注文から7日以内にお振込みください。"
            "振込手数料はお客様のご負担となります。入金確認後に発送いたします。",
            "銀行振込 振込先 口座 期限 振込手数料",
        ),
        (
            "Where and by when do I pay by bank transfer?",
            "The account details are in your order confirmation e-mail. Please transfer within 7 "
            "days of ordering; transfer fees are yours. We ship once the payment arrives.",
            "bank transfer account deadline fee",
        ),
    ),
]

_ACCOUNT = [
    *_pair(
        "account",
        (
            "パスワードを忘れました。",
            "ログイン画面の「パスワードをお忘れの方」から登録メールアドレスを入力してください。"
            "再設定用のリンク（24時間有効）をお送りします。",
            "パスワード 忘れた 再設定 リセット ログインできない",
        ),
        (
            "I forgot my password.",
            "Click 'Forgot your password?' on the login page and enter your registered e-mail "
            "address. We send you a reset link that is valid for 24 hours.",
            "password forgot reset login cannot sign in",
        ),
    ),
    *_pair(
        "account",
        (
            "登録メールアドレスを変更したい。",
            "マイページの「会員情報」からメールアドレスを変更できます。新しいアドレス宛の確認メールの"
            "リンクをクリックすると変更が完了します。本人確認のため、サポートでは代理で変更いたしません。",
            "メールアドレス 変更 登録情報 会員情報",
        ),
        (
            "How do I change my e-mail address?",
            "Change it under Account details in My Page. The change takes effect when you click "
            "the link in the confirmation e-mail sent to the new address. For your security, "
            "support cannot change it for you.",
            "email change address account update",
        ),
    ),
    *_pair(
        "account",
        (
            "お届け先住所を変更したい。",
            "マイページの「お届け先」から変更できます。発送前のご注文のお届け先を変更したい場合は、"
            "注文番号を添えてサポートまでご連絡ください。",
            "住所変更 お届け先 変更 引っ越し",
        ),
        (
            "How do I change my delivery address?",
            "Update it under Addresses in My Page. To change the address of an order that has not "
            "shipped yet, contact support with the order number.",
            "address change delivery address moved",
        ),
    ),
    *_pair(
        "account",
        (
            "退会したい。メールマガジンを停止したい。",
            "退会はマイページの「退会手続き」から、メールマガジンの停止は「メール配信設定」から行えます。"
            "処理中のご注文がある場合は、完了後に退会してください。",
            "退会 解約 メルマガ 配信停止",
        ),
        (
            "How do I close my account or unsubscribe from the newsletter?",
            "Close your account under 'Close account' in My Page, and unsubscribe under 'E-mail "
            "settings'. If an order is still in progress, close the account after it is complete.",
            "close account delete unsubscribe newsletter",
        ),
    ),
    *_pair(
        "account",
        (
            "会員登録せずに注文できますか？",
            "ゲスト購入が可能です。ただしクーポンのご利用と注文履歴の確認には会員登録が必要です。",
            "ゲスト購入 会員登録 なし 登録しない",
        ),
        (
            "Can I order without an account?",
            "Yes, as a guest. You need an account to use coupons and to see your order history.",
            "guest checkout without account register",
        ),
    ),
]

_COUPONS = [
    *_pair(
        "coupons",
        (
            "クーポンの使い方を教えてください。",
            "ご注文手続きの「クーポンコード」欄にコードを入力してください。クーポンは1回のご注文に"
            "つき1枚までで、併用はできません。送料には適用されません。",
            "クーポン 使い方 コード 併用 1枚",
        ),
        (
            "How do I use a coupon?",
            "Enter the code in the 'Coupon code' field at checkout. One coupon per order; coupons "
            "cannot be combined and do not apply to shipping.",
            "coupon code how to use one per order combine",
        ),
    ),
    *_pair(
        "coupons",
        (
            "クーポンが使えません。",
            "有効期限・最低購入金額・対象商品をご確認ください。1回のご注文で使えるクーポンは1枚です。"
            "期限切れのクーポンは再発行できません。",
            "クーポン 使えない 期限切れ エラー",
        ),
        (
            "My coupon does not work.",
            "Check its expiry date, minimum order amount and eligible items. Only one coupon can "
            "be used per order. Expired coupons cannot be reissued.",
            "coupon not working invalid expired error",
        ),
    ),
    *_pair(
        "coupons",
        (
            "お詫びクーポンとは何ですか？",
            "配送の遅れ、ご不在による持ち戻り、再配達の不履行など、当店の記録で確認できる配送上の"
            "ご迷惑に対して、サポートからお送りするクーポンです。1件のお問い合わせにつき1枚、"
            "お一人様30日間に1枚まで、最大1,000円分で、発行から90日間有効です。"
            "期限切れのクーポンは再発行できません。",
            "お詫びクーポン お詫び クーポン 遅延",
        ),
        (
            "What is an apology coupon?",
            "A coupon support sends when our records show something went wrong with a "
            "delivery: it came late, it was taken back to the depot, or a booked redelivery "
            "did not happen. One per inquiry and one per customer in 30 days, worth up to "
            "¥1,000, valid for 90 days from issue. Expired coupons cannot be reissued.",
            "apology coupon compensation sorry",
        ),
    ),
]

_ORDERS = [
    *_pair(
        "orders",
        (
            "注文をキャンセルしたい。",
            "発送前（「注文受付」または「注文確定」の状態）のご注文はキャンセルできます。サポートまで"
            "注文番号をお知らせください。カードの与信は解放されます。発送後のキャンセルはできませんので、"
            "商品到着後に返品をお申し込みください。",
            "キャンセル 注文取消 取り消し 発送前",
        ),
        (
            "How do I cancel an order?",
            "Orders that have not shipped yet (status pending or confirmed) can be cancelled: "
            "send support your order number and the card authorization is released. Shipped "
            "orders cannot be cancelled; please return the item after it arrives.",
            "cancel order cancellation before shipping",
        ),
    ),
    *_pair(
        "orders",
        (
            "注文内容を変更したい。",
            "ご注文確定後の商品の追加・変更はできません。発送前であれば、一度キャンセルして"
            "改めてご注文ください。",
            "注文変更 追加 変更 数量",
        ),
        (
            "Can I change my order?",
            "Items cannot be added or changed once an order is confirmed. Before it ships, you "
            "can cancel it and place a new order.",
            "change order modify add item quantity",
        ),
    ),
    *_pair(
        "orders",
        (
            "注文確認メールが届きません。",
            "迷惑メールフォルダをご確認のうえ、@netshop.example からのメールを"
            "受信できるよう設定してください。ご注文内容はマイページの注文履歴でもご確認いただけます。",
            "確認メール 届かない 迷惑メール 注文履歴",
        ),
        (
            "I did not receive the order confirmation e-mail.",
            "Check your spam folder and allow e-mail from @netshop.example. You can also see the "
            "order in your order history in My Page.",
            "confirmation email not received spam order history",
        ),
    ),
    *_pair(
        "orders",
        (
            "注文ステータスの意味を教えてください。",
            "「注文受付」はお支払い確認前、「注文確定」は出荷準備中、「発送済み」は配送中、"
            "「配達完了」はお届け済み、「キャンセル」は取消済みのご注文です。",
            "注文ステータス 状態 意味 発送済み 注文確定",
        ),
        (
            "What do the order statuses mean?",
            "Pending: we are waiting for payment confirmation. Confirmed: being prepared for "
            "shipping. Shipped: on its way. Delivered: handed over. Cancelled: the order was "
            "cancelled.",
            "order status meaning pending confirmed shipped delivered cancelled",
        ),
    ),
    *_pair(
        "orders",
        (
            "品切れの商品は再入荷しますか？",
            "商品ページの「再入荷のお知らせ」に登録いただくと、入荷時にメールでお知らせします。"
            "再入荷時期はお答えできない場合があります。",
            "在庫切れ 品切れ 再入荷 入荷",
        ),
        (
            "Will a sold-out item come back in stock?",
            "Sign up for 'Notify me' on the product page and we will e-mail you when it is back. "
            "We often cannot say when that will be.",
            "out of stock sold out restock back in stock",
        ),
    ),
]

_OTHER = [
    *_pair(
        "other",
        (
            "ギフトラッピングはできますか？",
            "1商品につき330円（税込）で和紙ラッピングを承ります。のし・メッセージカードは無料です。"
            "ご注文時にお選びください。",
            "ギフト ラッピング 包装 のし メッセージカード",
        ),
        (
            "Do you offer gift wrapping?",
            "Yes: washi-paper wrapping for ¥330 per item (tax included). Noshi paper and a message "
            "card are free. Choose them at checkout.",
            "gift wrapping wrap noshi message card present",
        ),
    ),
    *_pair(
        "other",
        (
            "贈り先に金額がわからないように送れますか？",
            "ご注文者とお届け先が異なる場合、金額の記載のない納品書をお入れします。",
            "ギフト 贈り物 金額 納品書 別住所",
        ),
        (
            "Can I send a gift without showing the price?",
            "When the delivery address differs from yours, we include a packing slip without "
            "prices.",
            "gift different address price packing slip",
        ),
    ),
    *_pair(
        "other",
        (
            "領収書・請求書は発行できますか？",
            "発送後、マイページの注文履歴から領収書（PDF）をダウンロードできます。宛名はご自由に"
            "ご指定いただけます。適格請求書発行事業者の登録番号（T1234567890123）を記載しています。",
            "領収書 請求書 インボイス 適格請求書 宛名",
        ),
        (
            "Can I get a receipt or invoice?",
            "After shipping, download a PDF receipt from your order history in My Page; you can "
            "set the addressee. Receipts carry our qualified-invoice registration number "
            "(T1234567890123).",
            "receipt invoice qualified invoice pdf addressee",
        ),
    ),
    *_pair(
        "other",
        (
            "問い合わせ窓口の営業時間は？",
            "サポート担当者の対応時間は平日10:00〜18:00です。お問い合わせフォームは24時間受け付けて"
            "おり、1営業日以内にご返信します。",
            "問い合わせ 営業時間 電話 連絡先 サポート",
        ),
        (
            "What are your support hours?",
            "Our support staff work weekdays 10:00-18:00 (Japan time). The contact form is open "
            "24 hours and we reply within one business day.",
            "support hours contact phone opening times",
        ),
    ),
]

FAQ: tuple[FaqSpec, ...] = (
    *_RETURNS,
    *_DELIVERY,
    *_PAYMENT,
    *_ACCOUNT,
    *_COUPONS,
    *_ORDERS,
    *_OTHER,
)
