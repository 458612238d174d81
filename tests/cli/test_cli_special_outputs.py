"""`-o` onto something that is not a regular file: a device node, a FIFO, a symlink, a
socket. Only regular files are replaced (atomically); nothing else ever becomes one."""

import os
import socket
import stat
import threading

IMPORT = "from autograph_py import operators as __ag__"


def _expected(run_cli, source):
    result = run_cli("convert", source)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_character_device_is_written_through_not_replaced(run_cli, fixtures, tmp_path):
    device = tmp_path / "null"
    # /dev/null's own numbers: what `-o /dev/null` meets, in a directory of our own.
    os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    result = run_cli("convert", fixtures / "tabs.py", "-o", device)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    mode = os.lstat(device).st_mode
    assert stat.S_ISCHR(mode) and os.lstat(device).st_rdev == os.makedev(1, 3)
    assert os.listdir(tmp_path) == ["null"]  # no temporary file left behind


def test_fifo_is_written_through(run_cli, fixtures, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    # The writer's open blocks until a reader opens the other end, as with `> fifo`.
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    result = run_cli("convert", fixtures / "tabs.py", "-o", fifo)
    reader.join(timeout=60)
    assert (result.returncode, result.stderr) == (0, "")
    assert received == [_expected(run_cli, fixtures / "tabs.py")]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_symlink_target_is_replaced_and_the_link_stays(run_cli, fixtures, tmp_path):
    target = tmp_path / "real" / "out.py"
    target.parent.mkdir()
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.py"
    link.symlink_to(target)
    result = run_cli("convert", fixtures / "tabs.py", "-o", link)
    assert (result.returncode, result.stderr) == (0, "")
    assert os.readlink(link) == str(target)
    assert target.read_text() == _expected(run_cli, fixtures / "tabs.py")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(os.listdir(tmp_path)) == ["link.py", "real"]
    assert os.listdir(target.parent) == ["out.py"]


def test_dangling_symlink_creates_its_target(run_cli, fixtures, tmp_path):
    link = tmp_path / "link.py"
    link.symlink_to(tmp_path / "new.py")
    result = run_cli("convert", fixtures / "tabs.py", "-o", link)
    assert (result.returncode, result.stderr) == (0, "")
    assert link.is_symlink() and IMPORT in (tmp_path / "new.py").read_text()


def test_symlink_to_a_device_is_written_through(run_cli, fixtures, tmp_path):
    device = tmp_path / "null"
    os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    link = tmp_path / "link"
    link.symlink_to(device)
    result = run_cli("convert", fixtures / "tabs.py", "-o", link)
    assert (result.returncode, result.stderr) == (0, "")
    assert link.is_symlink() and stat.S_ISCHR(os.lstat(device).st_mode)


def test_symlink_to_the_input_is_refused(run_cli, fixtures, tmp_path):
    source = tmp_path / "model.py"
    source.write_text((fixtures / "tabs.py").read_text())
    link = tmp_path / "link.py"
    link.symlink_to(source)
    result = run_cli("convert", source, "-o", link)
    assert result.returncode == 2 and "is the input file" in result.stderr
    assert source.read_text() == (fixtures / "tabs.py").read_text()


def test_socket_is_refused_before_converting(run_cli, fixtures, tmp_path):
    path = tmp_path / "sock"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        result = run_cli("convert", fixtures / "tabs.py", "-o", path)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (f"{path}: is not a regular file, a character device or a "
                             "FIFO; autograph writes only to those\n")
    assert stat.S_ISSOCK(os.lstat(path).st_mode)
