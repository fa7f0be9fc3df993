#!/usr/bin/env python3
"""Write the sample export files here in their native bytes.

Every value (names, IBANs, amounts, ids, tracking numbers) is invented.
Only the LAYOUT (column names/order, delimiter, quoting, date and number
format, preamble/trailer lines, encoding, BOM, line ending) follows the
public sources listed in INDEX.md.

Usage:  python3 make_files.py          (writes banks/ cards/ couriers/)
"""
import json
import os

ROOT = os.path.dirname(os.path.abspath(__file__))


def iban(cc, bban):
    """Invented IBAN with valid ISO 13616 check digits."""
    def num(s):
        return "".join(str(int(c, 36)) for c in s)
    check = 98 - int(num(bban + cc + "00")) % 97
    return f"{cc}{check:02d}{bban}"


def write(rel, lines, encoding, eol="\n", bom=False, final_eol=True):
    text = eol.join(lines) + (eol if final_eol else "")
    data = text.encode(encoding)
    if bom:
        data = b"\xef\xbb\xbf" + data
    path = os.path.join(ROOT, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(data)
    assert len(data) < 4096, (rel, len(data))
    print(f"{rel:32s} {encoding:12s} {len(data):5d} bytes")


def q(*fields, sep=";"):
    """Quote every field with double quotes (no field contains a quote)."""
    return sep.join('"%s"' % f for f in fields)


# --------------------------------------------------------------------------
# Germany
# --------------------------------------------------------------------------
OWN_DKB = iban("DE", "12030000" + "1064558821")
OWN_SPK = iban("DE", "79050000" + "0044731200")


def dkb_v1():
    # Legacy DKB Girokonto export (before 2023): ISO-8859-1, 6 preamble
    # lines, header on line 7, every line ends with a trailing ';'.
    hdr = ["Buchungstag", "Wertstellung", "Buchungstext",
           "Auftraggeber / Begünstigter", "Verwendungszweck", "Kontonummer",
           "BLZ", "Betrag (EUR)", "Gläubiger-ID", "Mandatsreferenz",
           "Kundenreferenz"]
    rows = [
        ["28.06.2024", "28.06.2024", "Lastschrift", "Stadtwerke Mainfranken GmbH",
         "Abschlag Strom Juni 2024", iban("DE", "79050000" + "0000417781"),
         "BYLADEM1SWU", "-86,00", "DE47ZZZ00000093417", "SWM-118830-04", ""],
        ["27.06.2024", "27.06.2024", "Gutschrift", "Möbelwerk Kranich KG",
         "Lohn/Gehalt 06/2024", iban("DE", "70020270" + "0663018844"),
         "HYVEDEMMXXX", "2.950,00", "", "", ""],
        ["14.06.2024", "13.06.2024", "Lastschrift", "Bücherstube Ebert e.K.",
         "Ihr Einkauf vom 12.06.2024 Beleg 55120", iban("DE", "50010517" + "5407324421"),
         "INGDDEFFXXX", "-26,99", "DE02ZZZ00001188210", "BST-7731", "NOTPROVIDED"],
        ["03.06.2024", "03.06.2024", "Überweisung", "Hausverwaltung Brückner",
         "Miete Juni 2024 Whg. 3 links", iban("DE", "76050101" + "0013372290"),
         "SSKNDE77XXX", "-1.450,00", "", "", ""],
        ["01.06.2024", "01.06.2024", "Gutschrift", "Lotte Fahrenkamp",
         "Anteil Grillabend", iban("DE", "43060967" + "4111022203"),
         "GENODEM1GLS", "18,50", "", "", ""],
    ]
    lines = [
        q("Kontonummer:", f"{OWN_DKB} / Girokonto") + ";",
        "",
        q("Von:", "01.06.2024") + ";",
        q("Bis:", "30.06.2024") + ";",
        q("Kontostand vom 30.06.2024:", "3.117,46 EUR") + ";",
        "",
        q(*hdr) + ";",
    ] + [q(*r) + ";" for r in rows]
    write("banks/dkb_v1.csv", lines, "iso-8859-1")


def dkb_v2():
    # New DKB banking (late 2023 on): UTF-8 with BOM, 4 preamble lines,
    # header on line 5, dates dd.mm.yy, Status Gebucht/Vorgemerkt,
    # Umsatztyp Eingang/Ausgang, amounts without trailing zeros.
    hdr = ["Buchungsdatum", "Wertstellung", "Status", "Zahlungspflichtige*r",
           "Zahlungsempfänger*in", "Verwendungszweck", "Umsatztyp", "IBAN",
           "Betrag (€)", "Gläubiger-ID", "Mandatsreferenz", "Kundenreferenz"]
    me = "Jana Körner"
    rows = [
        ["29.06.24", "", "Vorgemerkt", me, "Bäckerei Sonnenschein//Würzburg/DE",
         "2024-06-28T07:41:55 Karte Nr. 4921XXXXXXXX3310", "Ausgang", "", "-4,8", "", "", ""],
        ["27.06.24", "27.06.24", "Gebucht", "Möbelwerk Kranich KG", me,
         "Lohn/Gehalt 06/2024", "Eingang", iban("DE", "70020270" + "0663018844"),
         "2.950", "", "", ""],
        ["15.06.24", "15.06.24", "Gebucht", me, "Streamio Europe B.V.",
         "Abo Juni 2024 Kd-Nr. 88301", "Ausgang", iban("NL", "ABNA" + "0417164300"),
         "-26,99", "NL55ZZZ341221840000", "SIO-0088301", "4430118830120240615"],
        ["03.06.24", "03.06.24", "Gebucht", me, "Hausverwaltung Brückner",
         "Miete Juni 2024 Whg. 3 links", "Ausgang", iban("DE", "76050101" + "0013372290"),
         "-1.450", "", "", ""],
        ["01.06.24", "01.06.24", "Gebucht", "Lotte Fahrenkamp", me,
         "Anteil Grillabend", "Eingang", iban("DE", "43060967" + "4111022203"),
         "12,5", "", "", ""],
    ]
    lines = [
        q("Girokonto", OWN_DKB),
        '""',
        q("Kontostand vom 30.06.2024:", "2.204,16 €"),
        '""',
        q(*hdr),
    ] + [q(*r) for r in rows]
    write("banks/dkb_v2.csv", lines, "utf-8", bom=True)


def sparkasse():
    # Sparkasse "CSV-CAMT V2": no preamble, 17 quoted columns, dd.mm.yy,
    # Betrag signed with decimal comma, Info = Umsatz gebucht / vorgemerkt.
    hdr = ["Auftragskonto", "Buchungstag", "Valutadatum", "Buchungstext",
           "Verwendungszweck", "Glaeubiger ID", "Mandatsreferenz",
           "Kundenreferenz (End-to-End)", "Sammlerreferenz",
           "Lastschrift Ursprungsbetrag", "Auslagenersatz Ruecklastschrift",
           "Beguenstigter/Zahlungspflichtiger", "Kontonummer/IBAN",
           "BIC (SWIFT-Code)", "Betrag", "Waehrung", "Info"]
    a = OWN_SPK
    rows = [
        [a, "12.01.24", "12.01.24", "KARTENZAHLUNG", "2024-01-11T18:02 Debitk.7 2027-12",
         "", "", "", "", "", "", "Getränke Hösl//Bamberg/DE", iban("DE", "77050000" + "0300091177"),
         "BYLADEM1SKB", "-23,47", "EUR", "Umsatz vorgemerkt"],
        [a, "10.01.24", "10.01.24", "FOLGELASTSCHRIFT", "Beitrag 01/2024 Mitgl.-Nr. 40917",
         "DE71ZZZ00000401193", "M-40917", "BEITRAG-2024-01", "", "", "",
         "Turnverein Jahn 1861 e.V.", iban("DE", "77050000" + "0000233111"), "BYLADEM1SKB",
         "-15,00", "EUR", "Umsatz gebucht"],
        [a, "02.01.24", "02.01.24", "DAUERAUFTRAG", "Miete Januar 2024",
         "", "", "", "", "", "", "Grundbesitz Müller GbR", iban("DE", "77050000" + "0000510022"),
         "BYLADEM1SKB", "-1.450,00", "EUR", "Umsatz gebucht"],
        [a, "29.12.23", "02.01.24", "GUTSCHR. UEBERWEISUNG", "Gehalt Dezember 2023",
         "", "", "NOTPROVIDED", "", "", "", "Brauerei Zöttl GmbH", iban("DE", "77050000" + "0000700431"),
         "BYLADEM1SKB", "2.950,00", "EUR", "Umsatz gebucht"],
    ]
    lines = [q(*hdr)] + [q(*r) for r in rows]
    write("banks/sparkasse_camt.csv", lines, "iso-8859-1", eol="\r\n")


# --------------------------------------------------------------------------
# Netherlands
# --------------------------------------------------------------------------
def ing_nl():
    # ING NL "puntkomma" export (2021+): 11 quoted columns, YYYYMMDD, Af/Bij,
    # unsigned amounts, Saldo na mutatie, newest first.
    own = iban("NL", "INGB" + "0007724410")
    hdr = ["Datum", "Naam / Omschrijving", "Rekening", "Tegenrekening", "Code",
           "Af Bij", "Bedrag (EUR)", "Mutatiesoort", "Mededelingen",
           "Saldo na mutatie", "Tag"]
    rows = [
        ["20240614", "Kosten OranjePakket", own, "", "DV", "Af", "3,20",
         "Diversen", "1 mei t/m 31 mei 2024 ING BANK N.V. Valutadatum: 14-06-2024",
         "1477,36", ""],
        ["20240612", "Bakkerij De Gouden Krakeling", own, "", "BA", "Af", "26,99",
         "Betaalautomaat", "Pasvolgnr: 004 12-06-2024 14:33 Transactie: 0F9A21 Term: CT7713",
         "1480,56", ""],
        ["20240603", "Woonstichting Hofwijck", own, iban("NL", "RABO" + "0316009921"),
         "IC", "Af", "1450,00", "Incasso",
         "Naam: Woonstichting Hofwijck Omschrijving: Huur juni 2024 IBAN: "
         + iban("NL", "RABO" + "0316009921") + " Valutadatum: 03-06-2024",
         "1507,55", ""],
        ["20240601", "Vos Installatietechniek B.V.", own, iban("NL", "ABNA" + "0512093377"),
         "OV", "Bij", "2950,00", "Overschrijving",
         "Naam: Vos Installatietechniek B.V. Omschrijving: Salaris mei 2024 IBAN: "
         + iban("NL", "ABNA" + "0512093377") + " Valutadatum: 01-06-2024",
         "2957,55", ""],
        ["20240601", "M. de Wit", own, iban("NL", "INGB" + "0004410276"), "GT", "Bij",
         "7,50", "Online bankieren",
         "Naam: M. de Wit Omschrijving: terug voor lunch IBAN: "
         + iban("NL", "INGB" + "0004410276") + " Valutadatum: 01-06-2024",
         "7,55", ""],
    ]
    lines = [q(*hdr)] + [q(*r) for r in rows]
    write("banks/ing_nl.csv", lines, "utf-8", eol="\r\n")


def rabobank():
    # Rabobank "CSV_A" (2018+): 26 quoted comma-separated columns, ISO dates,
    # explicit '+'/'-' on Bedrag and Saldo na trn, Volgnr sequence number.
    own = iban("NL", "RABO" + "0312886034")
    hdr = ["IBAN/BBAN", "Munt", "BIC", "Volgnr", "Datum", "Rentedatum", "Bedrag",
           "Saldo na trn", "Tegenrekening IBAN/BBAN", "Naam tegenpartij",
           "Naam uiteindelijke partij", "Naam initiërende partij", "BIC tegenpartij",
           "Code", "Batch ID", "Transactiereferentie", "Machtigingskenmerk",
           "Incassant ID", "Betalingskenmerk", "Omschrijving-1", "Omschrijving-2",
           "Omschrijving-3", "Reden retour", "Oorspr bedrag", "Oorspr munt", "Koers"]

    def row(volg, d, amt, saldo, teg, naam, bic, code, o1):
        return [own, "EUR", "RABONL2U", volg, d, d, amt, saldo, teg, naam, "", "",
                bic, code, "", "", "", "", "", o1, " ", "", "", "", "", ""]
    rows = [
        row("000000000000031204", "2024-01-02", "-1450,00", "+812,40",
            iban("NL", "ABNA" + "0618834412"), "Stichting Woonbron Zuid", "ABNANL2A",
            "db", "Huur januari 2024 contract 22-0917"),
        row("000000000000031205", "2024-01-05", "-4,80", "+807,60",
            "", "Café 't Hoekje", "", "db", "Betaalautomaat 05-01-2024 08:12"),
        row("000000000000031206", "2024-01-19", "+2950,00", "+3757,60",
            iban("NL", "INGB" + "0007002288"), "Zeeuwse Visafslag B.V.", "INGBNL2A",
            "cb", "Salaris januari 2024"),
        row("000000000000031207", "2024-01-22", "-26,99", "+3730,61",
            iban("NL", "INGB" + "0007702931"), "Fietsenmakerij Zoë Bakker", "INGBNL2A",
            "db", "Factuur 2024-0031 band en ketting"),
    ]
    lines = [q(*hdr, sep=",")] + [q(*r, sep=",") for r in rows]
    write("banks/rabobank.csv", lines, "iso-8859-1", eol="\r\n")


# --------------------------------------------------------------------------
# France
# --------------------------------------------------------------------------
def boursorama():
    # BoursoBank/Boursorama account export: cp1252, ';', dd/mm/yyyy,
    # signed amount with decimal comma, label quoted.
    acct = "00040318822"
    hdr = "dateOp;dateVal;label;category;categoryParent;supplierFound;amount;accountNum;accountLabel;accountbalance"
    rows = [
        ('28/06/2024', '28/06/2024', '"PRLV SEPA FREEBOX TELECOM"', 'Téléphonie et internet',
         'Abonnements', 'freebox telecom', '-29,99'),
        ('27/06/2024', '27/06/2024', '"VIR SEPA ATELIERS DURAND SAS"', 'Salaires', 'Revenus',
         '', '2950,00'),
        ('14/06/2024', '13/06/2024', '"CARTE 12/06/24 BOULANGERIE DU PARC CB*4417"',
         'Alimentation', 'Vie quotidienne', 'boulangerie du parc', '-4,80'),
        ('05/06/2024', '05/06/2024', '"VIR SEPA LOYER JUIN SCI LES TILLEULS"', 'Loyer', 'Logement',
         '', '-1450,00'),
        ('03/06/2024', '03/06/2024', '"AVOIR 01/06/24 LIBRAIRIE CÉDILLE CB*4417"',
         'Remboursements reçus', 'Virements reçus', 'librairie cédille', '12,50'),
    ]
    lines = [hdr] + [";".join(r + (acct, "BOURSORAMA BANQUE", "3117,46")) for r in rows]
    write("banks/boursorama.csv", lines, "cp1252")


def credit_mutuel():
    # Crédit Mutuel: ISO-8859-15, ';', Débit/Crédit pair (debit written with
    # a minus sign), running Solde, oldest first.
    lines = [
        "Date;Date de valeur;Débit;Crédit;Libellé;Solde",
        "03/06/2024;03/06/2024;-1450,00;;PRLV SEPA SCI DU CLOS FLEURI LOYER JUIN;1321,45",
        "05/06/2024;05/06/2024;-40,00;;RETRAIT DAB 40€ 05/06 STRASBOURG GARE;1281,45",
        "12/06/2024;11/06/2024;-26,99;;PAIEMENT CB 1106 ÉPICERIE FINE ŒNOLOGIE;1254,46",
        "27/06/2024;27/06/2024;;2950,00;VIR SALAIRE JUIN MENUISERIE KOEHLER;4204,46",
        "28/06/2024;28/06/2024;-4,80;;FRAIS TENUE DE COMPTE;4199,66",
    ]
    write("banks/credit_mutuel.csv", lines, "iso-8859-15")


# --------------------------------------------------------------------------
# Spain
# --------------------------------------------------------------------------
def sabadell():
    # Banco Sabadell text download: no header, '|' separated, dd/mm/yyyy,
    # point decimal, newest first, 7 fields:
    # fecha|concepto|fecha valor|importe|saldo|referencia 1|referencia 2
    lines = [
        "28/06/2024|COMPRA TARJ. 5402XXXXXXXX4410 PANADERÍA MUÑOZ-SEGOVIA|29/06/2024|-4.80|2417.33||5402000000004410",
        "27/06/2024|ABONO TRANSFERENCIA DE TALLERES ORIHUELA, S.L.|27/06/2024|2950.00|2422.13||TALLERES ORIHUEL",
        "14/06/2024|ADEUDO RECIBO COMUNIDAD PROPIETARIOS C/ OLMO 7|14/06/2024|-26.99|-527.87|B40112233000|R240614000019",
        "03/06/2024|TRANSFERENCIA A INMOBILIARIA PEÑALARA S.A.|03/06/2024|-1450.00|-500.88||",
        "01/06/2024|ABONO INTERESES|01/06/2024|0.12|949.12||",
    ]
    write("banks/sabadell.txt", lines, "iso-8859-1")


# --------------------------------------------------------------------------
# Italy
# --------------------------------------------------------------------------
def inbank_bcc():
    # Inbank portal (BCC banks) "ListaMovimentiCsv": ';', header
    # DATA;VALUTA;DARE;AVERE;CAUSALE ABI;DESCRIZIONE OPERAZIONE; with a
    # trailing empty column, dd/mm/yyyy, unsigned amounts 1.234,56, one
    # footer line (content guessed: totals of DARE and AVERE).
    lines = [
        "DATA;VALUTA;DARE;AVERE;CAUSALE ABI;DESCRIZIONE OPERAZIONE;",
        "03/06/2024;03/06/2024;1.450,00;;48;BONIFICO A FAVORE DI IMMOBILIARE COLLE VERDE SRL CANONE GIUGNO;",
        "12/06/2024;12/06/2024;26,99;;43;PAGAMENTO POS DATA-ORA 11-06-2024 19.42 PRESSO LIBRERIA DEL PORTICO CARTA N. ****7781;",
        "14/06/2024;14/06/2024;4,80;;66;COMMISSIONI E SPESE TENUTA CONTO;",
        "27/06/2024;27/06/2024;;2.950,00;27;BONIFICO DA OFFICINE MECCANICHE BRENTA SPA STIPENDIO GIUGNO;",
        "Totale;;1.481,79;2.950,00;;;",
    ]
    write("banks/inbank_bcc.csv", lines, "utf-8")


# --------------------------------------------------------------------------
# Brazil
# --------------------------------------------------------------------------
def nubank_conta():
    # Nubank account statement: comma, dd/mm/yyyy, signed point decimal,
    # UUID identifier per row.
    lines = [
        "Data,Valor,Identificador,Descrição",
        "03/06/2024,-1450.00,6653a1f2-0c4e-4b8e-9d0a-1f3c2b7e5a01,Pagamento de boleto efetuado - IMOBILIARIA SOL NASCENTE",
        "05/06/2024,-26.99,6657b3c4-7d21-4f6a-8e55-3a9b0c1d2e02,Compra no débito - LIVRARIA PÁGINA DUPLA",
        "10/06/2024,-4.80,665c0d11-2b3a-4c5d-9e6f-7a8b9c0d1e03,Compra no débito - PADARIA FLOR DE MAIO",
        "14/06/2024,2950.00,66607e22-3c4b-4d5e-8f70-8b9c0d1e2f04,Transferência recebida pelo Pix - OFICINA ANDRADE LTDA - ••.123.456/0001-••",
        "21/06/2024,12.50,6665c833-4d5c-4e6f-9081-9c0d1e2f3a05,Reembolso recebido pelo Pix - JULIA NAKAMURA - •••.456.789-••",
    ]
    write("banks/nubank_conta.csv", lines, "utf-8")


def inter():
    # Banco Inter "Extrato Conta Corrente": ';', 4 preamble lines + blank,
    # header on line 6, dd/mm/yyyy, 1.234,56 amounts, running Saldo.
    lines = [
        "Extrato Conta Corrente ",
        "Conta ;41883920",
        "Período ;01/06/2024 a 30/06/2024",
        "Saldo ;1.492,51",
        "",
        "Data Lançamento;Histórico;Descrição;Valor;Saldo",
        "03/06/2024;Pagamento efetuado;IMOBILIARIA SOL NASCENTE;-1.450,00;42,51",
        "07/06/2024;Pix recebido;OFICINA ANDRADE LTDA;2.950,00;2.992,51",
        "12/06/2024;Compra no débito;LIVRARIA PAGINA DUPLA;-26,99;2.965,52",
        "12/06/2024;Compra no débito;PADARIA FLOR DE MAIO;-4,80;2.960,72",
        "20/06/2024;Pix enviado;CARLOS EDUARDO PIRES;-100,00;2.860,72",
    ]
    write("banks/inter.csv", lines, "utf-8")


def nubank_fatura():
    # Nubank credit-card bill: date,title,amount; ISO date; point decimal;
    # purchases positive, payments/refunds negative.
    lines = [
        "date,title,amount",
        "2024-06-02,Padaria Flor de Maio,4.80",
        "2024-06-05,Livraria Pagina Dupla - Parcela 2/3,26.99",
        "2024-06-09,Pagamento recebido,-1450.00",
        "2024-06-11,Posto Beira Rio,210.35",
        "2024-06-18,Estorno de Livraria Pagina Dupla,-12.50",
    ]
    write("cards/nubank_fatura.csv", lines, "utf-8")


def c6_fatura():
    # C6 Bank card bill: ';', point decimal, purchase positive, Parcela
    # "Única"/"n/m", US$ amount and exchange rate columns.
    lines = [
        "Data de Compra;Nome no Cartão;Final do Cartão;Categoria;Descrição;Parcela;Valor (em US$);Cotação (em R$);Valor (em R$)",
        "02/06/2024;BEATRIZ L SOUZA;4417;Supermercado;Mercado Boa Safra;Única;0;0;87.45",
        "05/06/2024;BEATRIZ L SOUZA;4417;Casa;Moveis Cedro;2/4;0;0;362.50",
        "09/06/2024;BEATRIZ L SOUZA;4417;Serviços;Cloudnest Storage;Única;15.00;5.43;81.45",
        "15/06/2024;BEATRIZ L SOUZA;4417;Depósito;Pagamento de fatura;Única;0;0;-1450.00",
        "21/06/2024;BEATRIZ L SOUZA;4417;Restaurante;Cantina Nonna Rosa;Única;0;0;4.80",
    ]
    write("cards/c6_fatura.csv", lines, "utf-8")


# --------------------------------------------------------------------------
# Japan
# --------------------------------------------------------------------------
def mufg():
    # MUFG (三菱UFJ) Eco-passbook CSV: cp932, all fields quoted, 9 columns,
    # dates yyyy/m/d without zero padding, amounts 1,500, running 差引残高.
    hdr = ["日付", "摘要", "摘要内容", "支払い金額", "預かり金額", "差引残高",
           "メモ", "未資金化区分", "入払区分"]
    rows = [
        ["2024/6/3", "カード", "", "10,000", "", "240,000", "", "", "支払い"],
        ["2024/6/5", "デビット１", "５１２３４５　ヤマネコショウテン", "1,500", "", "238,500", "", "", "振替支払い"],
        ["2024/6/10", "振込１", "ｶ)ｻｸﾗﾃﾞﾝｷ", "", "250,000", "488,500", "", "", "振替預かり"],
        ["2024/6/12", "口座振替３", "㈱みどり電力", "8,711", "", "479,789", "", "", "振替支払い"],
        ["2024/6/25", "振込ＩＢ１", "ヤマダ　ハナコ", "30,000", "", "449,789", "", "", "振替支払い"],
        ["2024/6/28", "利息", "", "", "3", "449,792", "", "", "預かり"],
    ]
    lines = [q(*hdr, sep=",")] + [q(*r, sep=",") for r in rows]
    write("banks/mufg.csv", lines, "cp932", eol="\r\n")


def rakuten_bank():
    # 楽天銀行: cp932, unquoted, YYYYMMDD, one signed amount column, running
    # balance, no thousands separators.
    lines = [
        "取引日,入出金(円),残高(円),入出金先内容",
        "20240603,-1500,48500,JCBデビット A1184203 0000000000004417",
        "20240610,250000,298500,ｶ)ｻｸﾗﾃﾞﾝｷ",
        "20240612,-8711,289789,口座振替　みどり電力",
        "20240620,-110000,179789,他行宛振込　ヤマダ　ハナコ",
        "20240630,3,179792,普通預金利息",
    ]
    write("banks/rakuten_bank.csv", lines, "cp932")


def rakuten_jcb():
    # 楽天銀行 JCBデビット利用明細: cp932, quoted, YYYYMMDD, yen amount,
    # foreign-currency columns, 照会番号 as id; refunds negative.
    hdr = ["ご利用日", "ご利用先", "ご利用金額（円）", "現地通貨額", "通貨略称",
           "換算レート", "使用地域", "照会番号", "承認番号"]
    rows = [
        ["20240603", "ヤマネコショウテン", "1500", "", "", "", "国内", "202406030000418820", "418820"],
        ["20240608", "ＨＯＴＥＬ　ＣＯＲＡＬ　ＢＡＹ", "15320", "96.50", "USD", "158.756", "海外", "202406080000733105", "733105"],
        ["20240615", "コーヒースタンド　ミチクサ", "480", "", "", "", "国内", "202406150000119934", "119934"],
        ["20240617", "ＨＯＴＥＬ　ＣＯＲＡＬ　ＢＡＹ", "-1588", "-10.00", "USD", "158.800", "海外", "202406170000733106", "733991"],
    ]
    lines = [q(*hdr, sep=",")] + [q(*r, sep=",") for r in rows]
    write("cards/rakuten_jcb_debit.csv", lines, "cp932")


# --------------------------------------------------------------------------
# Korea
# --------------------------------------------------------------------------
def kb():
    # KB국민은행 거래내역: cp949, 4 lines before the header (content guessed),
    # header on line 5, 거래일시 yyyy.mm.dd HH:MM:SS (KST), quoted amounts with
    # thousands commas, 0 in the unused column, running 잔액, newest first,
    # last line 합계 (totals).
    hdr = "거래일시,적요,보낸분/받는분,송금메모,출금액,입금액,잔액,거래점,구분"
    rows = [
        '2024.06.28 19:40:02,체크카드,똠얌꿍식당,,"12,000",0,"2,206,500",,',
        '2024.06.25 09:00:00,급여,(주)한빛정밀,6월급여,0,"2,950,000","2,218,500",본점,',
        '2024.06.12 14:33:51,타행이체,박서연,관리비,"150,000",0,"-731,500",인터넷,',
        '2024.06.03 10:15:37,자동이체,한솔주택관리,6월 월세,"1,450,000",0,"-581,500",,',
        '2024.06.01 08:05:10,전자금융,김민준,점심값,0,"8,500","868,500",모바일,',
    ]
    lines = [
        "KB국민은행 거래내역조회",
        "계좌번호,123456-01-987654",
        "조회기간,2024.06.01 ~ 2024.06.30",
        "",
        hdr,
    ] + rows + ['합계,,,,"1,612,000","2,958,500",,,']
    write("banks/kb_kookmin.csv", lines, "cp949", eol="\r\n")


# --------------------------------------------------------------------------
# Couriers
# --------------------------------------------------------------------------
def correios():
    # Correios SRO "proxyapp" v1 JSON: objetos[].eventos[] newest first,
    # dtHrCriado local time without offset (America/Sao_Paulo).
    def unidade(tipo, cidade, uf):
        return {"tipo": tipo, "endereco": {"cidade": cidade, "uf": uf}}
    doc = {
        "objetos": [{
            "codObjeto": "QB418830267BR",
            "tipoPostal": {"sigla": "QB", "descricao": "OBJETO INTERNACIONAL PRIME",
                           "categoria": "PRIME"},
            "eventos": [
                {"codigo": "BDE", "tipo": "01", "dtHrCriado": "2024-06-14T11:02:37",
                 "descricao": "Objeto entregue ao destinatário",
                 "unidade": unidade("Unidade de Distribuição", "CAMPINAS", "SP")},
                {"codigo": "OEC", "tipo": "01", "dtHrCriado": "2024-06-14T08:19:05",
                 "descricao": "Objeto saiu para entrega ao destinatário",
                 "unidade": unidade("Unidade de Distribuição", "CAMPINAS", "SP")},
                {"codigo": "RO", "tipo": "01", "dtHrCriado": "2024-06-12T22:15:00",
                 "descricao": "Objeto em transferência - por favor aguarde",
                 "unidade": unidade("Unidade de Tratamento", "CAJAMAR", "SP"),
                 "unidadeDestino": unidade("Unidade de Distribuição", "CAMPINAS", "SP")},
                {"codigo": "PAR", "tipo": "17", "dtHrCriado": "2024-06-11T16:40:12",
                 "descricao": "Objeto recebido pelos Correios do Brasil",
                 "unidade": unidade("Unidade Operacional", "CURITIBA", "PR")},
                {"codigo": "PO", "tipo": "01", "dtHrCriado": "2024-06-10T09:41:12",
                 "descricao": "Objeto postado",
                 "unidade": unidade("Agência dos Correios", "CURITIBA", "PR")},
            ],
        }],
        "quantidade": 1,
    }
    text = json.dumps(doc, ensure_ascii=False, indent=2)
    write("couriers/correios.json", text.split("\n"), "utf-8")


def correios_sro_v3():
    # Older Correios SRO v3 JSON (webservice "Lista de Objetos"): evento[]
    # newest first, split "data" dd/mm/yyyy + "hora" HH:MM, plus "criacao"
    # ddmmyyyyHHMMSS.
    def ev(tipo, status, data, hora, descricao, local, cidade, uf):
        d, m, y = data.split("/")
        return {"tipo": tipo, "status": status, "data": data, "hora": hora,
                "criacao": f"{d}{m}{y}{hora.replace(':', '')}00",
                "descricao": descricao,
                "unidade": {"local": local, "cidade": cidade, "uf": uf,
                            "tipounidade": "Agência dos Correios" if tipo == "PO" else "Centro de Tratamento"}}
    doc = {
        "versao": "3.0", "quantidade": "1", "pesquisa": "Lista de Objetos",
        "resultado": "Todos os eventos",
        "objeto": [{
            "numero": "OY207719384BR", "sigla": "OY", "nome": "ETIQUETA LOGICA PAC",
            "categoria": "PAC",
            "evento": [
                ev("BDE", "01", "19/01/2024", "10:05", "Objeto entregue ao destinatário",
                   "CDD RECIFE", "RECIFE", "PE"),
                ev("OEC", "01", "19/01/2024", "07:48", "Objeto saiu para entrega ao destinatário",
                   "CDD RECIFE", "RECIFE", "PE"),
                ev("RO", "01", "16/01/2024", "23:30", "Objeto em trânsito - por favor aguarde",
                   "CTE SAO PAULO", "SAO PAULO", "SP"),
                ev("PO", "01", "15/01/2024", "14:01", "Objeto postado",
                   "AGF VILA MARIANA", "SAO PAULO", "SP"),
            ],
        }],
    }
    text = json.dumps(doc, ensure_ascii=False, indent=2)
    write("couriers/correios_sro_v3.json", text.split("\n"), "utf-8")


def laposte():
    # La Poste / Colissimo "suivi unifié": list of {shipment:{idShip,
    # event[]}}, each event with code/type/group/label/date/country/order;
    # dates ISO 8601 WITH offset (so no assume-zone is needed).
    def ev(order, code, label, date):
        return {"code": code, "type": "colis", "group": "colissimo", "label": label,
                "date": date, "country": "FR", "order": order}
    doc = [{
        "shipment": {
            "idShip": "6A24018837462",
            "event": [
                ev(5, "DI1", "Votre colis est livré.", "2024-06-14T12:05:00+02:00"),
                ev(4, "MD2", "Votre colis est en cours de livraison.", "2024-06-14T08:31:00+02:00"),
                ev(3, "ET1", "Votre colis est en cours d'acheminement.", "2024-06-13T01:12:00+02:00"),
                ev(2, "PC1", "Votre colis a été déposé après l'heure limite de dépôt. Il sera expédié dès le prochain jour ouvré.", "2024-06-12T19:47:00+02:00"),
                ev(1, "DR1", "Votre colis est prêt à être expédié, il va être remis à La Poste.", "2024-06-11T16:20:00+02:00"),
            ],
        }
    }]
    text = json.dumps(doc, ensure_ascii=False, indent=2)
    write("couriers/laposte_suivi.json", text.split("\n"), "utf-8")


def main():
    for fn in (dkb_v1, dkb_v2, sparkasse, ing_nl, rabobank, boursorama,
               credit_mutuel, sabadell, inbank_bcc, nubank_conta, inter,
               nubank_fatura, c6_fatura, mufg, rakuten_bank, rakuten_jcb, kb,
               correios, correios_sro_v3, laposte):
        fn()


if __name__ == "__main__":
    main()
