"""The demo shop's catalogue and the names its generated customers are drawn from."""

from __future__ import annotations

from typing import NamedTuple

from netshop.adapters import place_names


class ProductSpec(NamedTuple):
    sku: str
    name: str
    name_en: str
    price: int
    family: str = ""  # the variants of one product (sizes) share it; exchanges stay in it
    variant: str = ""
    stock: int = 20
    returnable: bool = True  # the FAQ: food is not returned unless defective


PRODUCTS: tuple[ProductSpec, ...] = (
    ProductSpec("TEA-HOJI-GIFT", "京都 ほうじ茶ギフトセット", "Kyoto Hojicha Gift Set", 3980),
    ProductSpec("KNF-SANTOKU-180", "堺打刃物 三徳包丁 18cm", "Sakai Santoku Knife 18 cm", 12800),
    ProductSpec("TWL-IMABARI-BATH", "今治タオル バスタオル", "Imabari Bath Towel", 4300),
    ProductSpec(
        "TWL-IMABARI-FACE", "今治タオル フェイスタオル 2枚組", "Imabari Face Towels, Set of 2", 1980
    ),
    ProductSpec("MUG-ARITA-AI", "有田焼 マグカップ 藍", "Arita Porcelain Mug, Indigo", 2200),
    ProductSpec("POT-NAMBU-065", "南部鉄器 急須 0.65L", "Nambu Cast-Iron Teapot 0.65 L", 8800),
    ProductSpec("TEA-MATCHA-UJI", "宇治抹茶 30g", "Uji Matcha 30 g", 2160),
    ProductSpec("TEA-SENCHA-SHIZ", "静岡 深蒸し煎茶 100g", "Shizuoka Fukamushi Sencha 100 g", 1620),
    ProductSpec("BWL-MINO-PAIR", "美濃焼 茶碗 ペア", "Mino-ware Rice Bowls, Pair", 3300),
    ProductSpec("CHP-WAKASA", "若狭塗 箸", "Wakasa Lacquered Chopsticks", 1650),
    ProductSpec("TNG-FUJI", "手ぬぐい 富士山柄", "Tenugui Cloth, Mt. Fuji", 990),
    ProductSpec("FRS-FUROSHIKI-70", "風呂敷 70cm", "Furoshiki Wrapping Cloth 70 cm", 2750),
    ProductSpec("DNB-IGA-8", "伊賀焼 土鍋 8号", "Iga-ware Donabe Clay Pot", 6600),
    ProductSpec("SNS-KYOSENSU", "京扇子", "Kyoto Folding Fan", 3520),
    ProductSpec("BNT-MAGEWAPPA", "曲げわっぱ 弁当箱", "Magewappa Bento Box", 5940),
    ProductSpec(
        "RCE-YUMEPIRIKA-5",
        "北海道産 ゆめぴりか 5kg",
        "Hokkaido Yumepirika Rice 5 kg",
        3580,
        returnable=False,
    ),
    ProductSpec(
        "SOY-KIOKE-500",
        "木桶仕込み 醤油 500ml",
        "Barrel-Aged Soy Sauce 500 ml",
        1080,
        returnable=False,
    ),
    ProductSpec(
        "NRI-ARIAKE-10", "有明海苔 全形10枚", "Ariake Nori Sheets, 10", 1280, returnable=False
    ),
    ProductSpec(
        "YKT-YUKATA-M", "綿紅梅 浴衣 Mサイズ", "Cotton Yukata, Size M", 7480, "YKT-YUKATA", "M"
    ),
    # Out of stock: an exchange to it is refused (the FAQ: refunded instead).
    ProductSpec(
        "YKT-YUKATA-L", "綿紅梅 浴衣 Lサイズ", "Cotton Yukata, Size L", 7480, "YKT-YUKATA", "L", 0
    ),
    ProductSpec("SLP-WASHI", "和紙スリッパ", "Washi Paper Slippers", 2420),
    ProductSpec(
        "CND-KONPEITO",
        "京都 金平糖 詰め合わせ",
        "Kyoto Konpeito Candy Assortment",
        1188,
        returnable=False,
    ),
    ProductSpec("INC-KYOTO", "京都 お香 白檀", "Kyoto Sandalwood Incense", 1540),
    ProductSpec("GLS-EDOKIRIKO", "江戸切子 ロックグラス", "Edo Kiriko Cut-Glass Tumbler", 16500),
    ProductSpec(
        "TSH-LOGO-M",
        "NetShop オリジナルTシャツ M",
        "NetShop Original T-Shirt, M",
        3300,
        "TSH-LOGO",
        "M",
    ),
    ProductSpec(
        "TSH-LOGO-L",
        "NetShop オリジナルTシャツ L",
        "NetShop Original T-Shirt, L",
        3300,
        "TSH-LOGO",
        "L",
    ),
)

# Pieces dear enough to try the approvals on (the four-eyes amount, the operator limit), sold
# only in the orders made for that. Kept out of PRODUCTS, which the generated orders draw from:
# a longer list there would change every generated order.
PREMIUM_PRODUCTS: tuple[ProductSpec, ...] = (
    ProductSpec(
        "JBK-WAJIMA-3", "輪島塗 重箱 三段", "Wajima Lacquer Tiered Box, 3 Tiers", 38500, stock=5
    ),
    ProductSpec("VAS-KUTANI", "九谷焼 花瓶 金彩", "Kutani-ware Gilded Vase", 132000, stock=2),
)

ALL_PRODUCTS: tuple[ProductSpec, ...] = PRODUCTS + PREMIUM_PRODUCTS
PRICES: dict[str, int] = {product.sku: product.price for product in ALL_PRODUCTS}

# (written name, romanised) for Japanese customers; romaji builds their e-mail addresses.
JA_FAMILY_NAMES = (
    ("佐藤", "sato"),
    ("鈴木", "suzuki"),
    ("高橋", "takahashi"),
    ("田中", "tanaka"),
    ("伊藤", "ito"),
    ("渡辺", "watanabe"),
    ("中村", "nakamura"),
    ("小林", "kobayashi"),
    ("加藤", "kato"),
    ("吉田", "yoshida"),
    ("山本", "yamamoto"),
    ("松本", "matsumoto"),
    ("井上", "inoue"),
    ("木村", "kimura"),
)
JA_GIVEN_NAMES = (
    ("翔太", "shota"),
    ("陽菜", "hina"),
    ("健一", "kenichi"),
    ("美咲", "misaki"),
    ("大輔", "daisuke"),
    ("結衣", "yui"),
    ("拓也", "takuya"),
    ("さくら", "sakura"),
    ("蓮", "ren"),
    ("葵", "aoi"),
    ("直樹", "naoki"),
    ("恵子", "keiko"),
)
EN_FAMILY_NAMES = (
    "Smith",
    "Johnson",
    "Brown",
    "Taylor",
    "Wilson",
    "Evans",
    "Thomas",
    "Clarke",
    "Walker",
    "Wright",
    "Hughes",
    "Green",
)
EN_GIVEN_NAMES = (
    "Olivia",
    "James",
    "Sophie",
    "Daniel",
    "Grace",
    "Liam",
    "Chloe",
    "Noah",
    "Emma",
    "Lucas",
    "Mia",
    "Ethan",
)

# The places parcels pass through, named once with their English names.
WAREHOUSE, HUB, DEPOTS = place_names.WAREHOUSE, place_names.HUB, place_names.DEPOTS
