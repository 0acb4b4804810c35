# The worker and the API, built from this repository (docker-compose.yml runs both from this image).
#   docker build -t billing .
#   docker run billing -jar billing-worker.jar server worker.yml   (or billing-api.jar ... api.yml)
# Configuration: the bundled worker.yml / api.yml, every value overridable from the environment.

FROM eclipse-temurin:17.0.14_7-jdk-jammy AS build
WORKDIR /src
COPY mvnw pom.xml ./
COPY .mvn/ .mvn/
COPY domain/ domain/
COPY workflows/ workflows/
COPY store/ store/
COPY activities/ activities/
COPY runtime/ runtime/
COPY worker/ worker/
COPY api/ api/
# Maven reads every module of the reactor, so the modules the image does not build bring their poms.
COPY devstack/pom.xml devstack/
COPY bench/pom.xml bench/
# The tests run in CI (./mvnw verify); the image only packages the two runnable jars.
RUN ./mvnw -B -q -DskipTests -pl worker,api -am package

FROM eclipse-temurin:17.0.14_7-jre-jammy
RUN useradd --system --uid 10001 --home-dir /app billing
WORKDIR /app
COPY --from=build /src/worker/target/billing-worker-1.0.0-all.jar billing-worker.jar
COPY --from=build /src/api/target/billing-api-1.0.0-all.jar billing-api.jar
USER billing
# API 8080 (admin 8081), worker admin 8091.
EXPOSE 8080 8081 8091
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75"]
