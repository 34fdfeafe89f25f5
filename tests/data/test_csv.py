"""CSV/TSV: delimiters, headers, encodings, and errors that name the file, row and column."""

from __future__ import annotations

import codecs

import pytest

from crafter.data import MAX_TABLE_BYTES, read_table, read_table_bytes
from crafter.errors import InputError

RESULTS = "model,dataset,accuracy\nViT-B/16,CIFAR-10,98.1\nResNet-50,CIFAR-10,96.3\n"


def test_comma_csv_types_and_records(write):
    t = read_table(write("results.csv", RESULTS))
    assert t.names == ["model", "dataset", "accuracy"]
    assert t.types == {"model": "nominal", "dataset": "nominal", "accuracy": "quantitative"}
    assert t.to_records()[1] == {"model": "ResNet-50", "dataset": "CIFAR-10", "accuracy": 96.3}
    assert len(t) == 2


@pytest.mark.parametrize("delimiter", ["\t", ";", "|"])
def test_delimiters_are_sniffed(write, delimiter):
    t = read_table(write("results.txt", RESULTS.replace(",", delimiter)))
    assert t.names == ["model", "dataset", "accuracy"]
    assert t.column("accuracy").values == [98.1, 96.3]


def test_tsv_suffix_and_commas_inside_cells(write):
    t = read_table(write("runs.tsv", "name\tnote\tloss\nrun 1\ta, b, c\t0.5\nrun 2\td, e\t0.25\n"))
    assert t.column("note").values == ["a, b, c", "d, e"]
    assert t.column("loss").values == [0.5, 0.25]


def test_semicolon_files_with_decimal_commas(write):
    t = read_table(write("eu.csv", "Modell;Genauigkeit\nA;0,85\nB;0,91\n"))
    assert t.column("Genauigkeit").values == [0.85, 0.91]


def test_headerless_file_gets_column_names(write):
    t = read_table(write("raw.csv", "1,0.5\n2,0.25\n3,0.125\n"))
    assert t.names == ["column_1", "column_2"]
    assert t.column("column_2").values == [0.5, 0.25, 0.125]


def test_header_override(write):
    t = read_table(write("raw.csv", "step,loss\n1,2\n"), header=False)
    assert t.names == ["column_1", "column_2"] and t.n_rows == 2


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "cp1252", "latin-1"])
def test_encodings(write, encoding):
    text = "modèle,précision\nRésNet,76.1\nViT-Ü,81.1\n"
    t = read_table(write("enc.csv", text, encoding))
    assert t.names == ["modèle", "précision"]
    assert t.column("modèle").values == ["RésNet", "ViT-Ü"]


def test_utf8_bom_does_not_leak_into_the_first_header(write):
    t = read_table(write("bom.csv", codecs.BOM_UTF8 + b"step,loss\n1,0.5\n"))
    assert t.names[0] == "step"


def test_quoted_newlines_keep_file_line_numbers_in_errors(write):
    p = write("q.csv", 'name,note,acc\na,"two\nlines",1\nb,x,2\nc,y\n')
    with pytest.raises(InputError) as e:
        read_table(p)
    assert "row 5" in str(e.value) and "q.csv" in str(e.value) and "ragged" in str(e.value)


def test_ragged_row_names_file_and_row(write):
    with pytest.raises(InputError) as e:
        read_table(write("bad.csv", "a,b,c\n1,2,3\n4,5\n"))
    msg = str(e.value)
    assert msg.startswith(str(write("bad.csv", "a,b,c\n1,2,3\n4,5\n")))
    assert "row 3 has 2" in msg and "expected 3" in msg


def test_text_cell_in_numeric_column_names_row_and_column(write):
    p = write("acc.csv", "model,accuracy\nA,81.2\nB,79.0\nC,n/a?\nD,77.5\n")
    with pytest.raises(InputError) as e:
        read_table(p)
    msg = str(e.value)
    assert "row 4" in msg and "column 'accuracy'" in msg and "'n/a?'" in msg and "acc.csv" in msg


def test_missing_cells_are_none_not_errors(write):
    t = read_table(write("m.csv", "model,accuracy\nA,81.2\nB,\nC,NA\nD,77.5\n"))
    assert t.column("accuracy").values == [81.2, None, None, 77.5]
    assert t.types["accuracy"] == "quantitative"


def test_empty_and_header_only_files(write):
    with pytest.raises(InputError, match="empty"):
        read_table(write("e.csv", ""))
    with pytest.raises(InputError, match="empty"):
        read_table(write("e2.csv", "\n\n  \n"))
    with pytest.raises(InputError, match="header but no data rows"):
        read_table(write("h.csv", "model,accuracy\n"))


def test_duplicate_headers(write):
    with pytest.raises(InputError) as e:
        read_table(write("d.csv", "model,acc,acc\nA,1,2\n"))
    assert "duplicate column name 'acc'" in str(e.value) and "columns 2 and 3" in str(e.value)


def test_blank_header_cells_are_named(write):
    t = read_table(write("idx.csv", ",model,acc\n0,A,1\n1,B,2\n"))
    assert t.names == ["column_1", "model", "acc"]


def test_trailing_delimiter_column_is_dropped(write):
    t = read_table(write("t.csv", "a,b,\n1,2,\n3,4,\n"))
    assert t.names == ["a", "b"]


def test_a_gigabyte_file_is_refused_before_reading(tmp_path):
    p = tmp_path / "huge.csv"
    with open(p, "wb") as f:
        f.write(b"a,b\n1,2\n")
        f.truncate(1 << 30)  # sparse: no gigabyte is written
    with pytest.raises(InputError) as e:
        read_table(p)
    msg = str(e.value)
    assert "1.0 GiB" in msg and "limit" in msg and "huge.csv" in msg
    assert MAX_TABLE_BYTES < 1 << 30


def test_size_limit_applies_to_uploads():
    with pytest.raises(InputError, match="limit"):
        read_table_bytes(b"a,b\n" + b"1,2\n" * 100, "up.csv", max_bytes=100)


def test_binary_data_is_not_a_table():
    with pytest.raises(InputError, match="binary"):
        read_table_bytes(b"\x00\x01\x02\xff" * 50, "x.csv")


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_table(tmp_path / "nope.csv")
    with pytest.raises(InputError, match="folder"):
        read_table(tmp_path)


def test_upload_without_suffix_is_sniffed():
    assert read_table_bytes(b'[{"a": 1}]', "upload").types == {"a": "quantitative"}
    assert read_table_bytes(b"a\tb\n1\t2\n", "upload").names == ["a", "b"]


def test_notes_say_what_was_decided(write):
    t = read_table(write("r.tsv", "a\tb\n1\t2\n", "utf-16"))
    assert t.notes == ["utf-16, tab-separated, header row"]


def test_examples_read(examples):
    t = read_table(examples / "loss_curves.tsv")
    assert t.types == {"step": "quantitative", "model": "nominal", "seed": "quantitative", "train_loss": "quantitative"}
    assert t.n_rows == 3 * 3 * 41
