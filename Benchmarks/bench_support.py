"""What the Python benchmark drivers share."""
import os
import subprocess


def release_binary(product, package_path="."):
    """Builds `product` in release mode and returns the path of its executable."""
    print(f"==> swift build -c release --product {product}", flush=True)
    subprocess.run(["swift", "build", "-c", "release", "--package-path", package_path, "--product", product], check=True)
    folder = subprocess.run(["swift", "build", "-c", "release", "--package-path", package_path, "--show-bin-path"],
                            capture_output=True, text=True, check=True).stdout.strip()
    return os.path.join(folder, product)


def alternate(routes, runs, rounds, seconds):
    """Warms each route up for 2 s, then measures them in turn `rounds` times for `seconds` each,
    appending each (requests/s, p99 ms, …) to `runs[name]`, and prints each round."""
    for measure in routes.values():
        measure(2)
    for round in range(rounds):
        for name, measure in routes.items():
            runs[name].append(measure(seconds))
        print(f"    round {round + 1}: " + ", ".join(f"{name} {runs[name][-1][0]:,.0f} req/s p99 {runs[name][-1][1]:.2f} ms"
                                                      for name in routes), flush=True)
