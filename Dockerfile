# latsim in a container:
#   docker build -t latsim .
#   docker run --rm -v "$PWD:/work" -w /work latsim regress --spec ci/gate.yaml --baseline ci/prediction-baseline.json --predictor-command ./predictor
# A predictor in Python or another language needs its runtime in the image:
# start FROM this one and install it.
ARG SWIFT_VERSION=6.1
FROM swift:${SWIFT_VERSION}-bookworm AS build
WORKDIR /src
COPY . .
RUN scripts/build-static.sh /opt/latsim

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libstdc++6 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /opt/latsim /opt/latsim
ENV PATH=/opt/latsim:$PATH
ENTRYPOINT ["latsim"]
CMD ["--help"]
